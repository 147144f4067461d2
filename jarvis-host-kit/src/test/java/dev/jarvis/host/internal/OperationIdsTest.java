package dev.jarvis.host.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.ProtocolOperations;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class OperationIdsTest {

  @Test
  void theConstantsAreExactlyTheSpecsOperationIds() throws IllegalAccessException {
    Set<String> constants = new TreeSet<>();
    for (Field field : OperationIds.class.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        constants.add((String) field.get(null));
      }
    }
    Set<String> spec =
        ProtocolOperations.all().stream()
            .map(ProtocolOperation::operationId)
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(spec, constants);
  }

  @Test
  void everyScopedMutationOfTheSpecHasOneRule() {
    ProtocolRules rules =
        new ProtocolRules(
            dev.jarvis.host.HostConfig.builder(dev.jarvis.host.HostAuth.anyCaller()).build());
    Set<String> scoped =
        ProtocolOperations.all().stream()
            .filter(
                op ->
                    op.operationClass()
                        == dev.jarvis.core.OperationClass.WORKSESSION_SCOPED_MUTATION)
            .map(ProtocolOperation::operationId)
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(
        scoped,
        scoped.stream()
            .filter(id -> rules.scoped(id).isPresent())
            .collect(Collectors.toCollection(TreeSet::new)));
    assertTrue(rules.hostWrittenEventTypes().contains("review.recorded"));
    assertTrue(rules.hostWrittenEventTypes().contains("work_session.created"));
  }
}
