package dev.jarvis.core.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.OperationClass;
import dev.jarvis.model.ProtocolErrorId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/error-mapping.md} is what users read; the catalogue is what the SDK sends. This test
 * fails when the page's table of all ids and the catalogue disagree on an id, where it can be
 * raised or its default reason.
 */
class ErrorMappingDocTest {

  private static final Map<String, String> SHORT_NAMES =
      Map.of(
          "non_ws", OperationClass.NON_WORKSESSION_MUTATION.wireName(),
          "ws_genesis", OperationClass.WORKSESSION_GENESIS_MUTATION.wireName(),
          "ws_scoped", OperationClass.WORKSESSION_SCOPED_MUTATION.wireName(),
          "ws_scoped_read", OperationClass.WORKSESSION_SCOPED_READ.wireName(),
          "export_read", OperationClass.EXPORT_READ.wireName());

  /** error_id → its row's cells (classes, default reason), from the page's "All N ids" table. */
  private static Map<String, String[]> documentedRows() throws Exception {
    String page = Files.readString(Path.of("..", "docs", "error-mapping.md"));
    String section = page.substring(page.indexOf("## All "));
    section = section.substring(0, section.indexOf("\n## ", 1));
    Map<String, String[]> rows = new LinkedHashMap<>();
    for (String line : section.lines().toList()) {
      if (line.startsWith("| `")) {
        String[] cells = line.split("\\|");
        rows.put(
            cells[1].strip().replace("`", ""), new String[] {cells[2].strip(), cells[3].strip()});
      }
    }
    return rows;
  }

  @Test
  void thePageListsExactlyTheCataloguesIdsUnderItsCount() throws Exception {
    String page = Files.readString(Path.of("..", "docs", "error-mapping.md"));
    int count = ProtocolErrorId.values().length;
    assertTrue(page.contains("## All " + count + " ids"), "the heading says " + count);
    Set<String> catalogue =
        Arrays.stream(ProtocolErrorId.values())
            .map(ProtocolErrorId::getValue)
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(catalogue, new TreeSet<>(documentedRows().keySet()));
  }

  @Test
  void everyDocumentedRowSaysWhereTheCatalogueRaisesItAndWhy() throws Exception {
    for (Map.Entry<String, String[]> row : documentedRows().entrySet()) {
      ProtocolErrorId id = ProtocolErrorId.fromValue(row.getKey());
      Set<String> documented =
          Arrays.stream(row.getValue()[0].split(","))
              .map(String::strip)
              .map(SHORT_NAMES::get)
              .collect(Collectors.toCollection(TreeSet::new));
      Set<String> raised =
          ProtocolErrorCatalog.operationClasses(id).stream()
              .map(OperationClass::wireName)
              .collect(Collectors.toCollection(TreeSet::new));
      assertEquals(raised, documented, row.getKey() + ": operation classes");
      assertEquals(
          ProtocolErrorCatalog.defaultReason(id), row.getValue()[1], row.getKey() + ": reason");
    }
  }
}
