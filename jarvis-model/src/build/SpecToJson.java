import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.File;

/**
 * Build step of jarvis-model (run by exec-maven-plugin with the Java source launcher): turns the
 * committed spec, YAML, into the JSON tree the runtime reads, so that no YAML parser is needed at
 * run time. Same parser and settings the runtime used before, so the tree is the same.
 *
 * <p>Usage: {@code java -cp CLASSPATH SpecToJson.java SPEC.yaml OUT.json}
 */
public class SpecToJson {
  public static void main(String[] args) throws Exception {
    JsonNode tree = new ObjectMapper(new YAMLFactory()).readTree(new File(args[0]));
    File out = new File(args[1]);
    out.getParentFile().mkdirs();
    new ObjectMapper().writeValue(out, tree);
  }
}
