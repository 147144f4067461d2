package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Where in the spec a validator error arose: its evaluation path (such as {@code
 * /properties/options/items/$ref/properties/id/$ref/pattern}) walked from the validated component
 * schema through the spec, following each {@code $ref}.
 *
 * @param components the component schemas entered, outermost first ({@code Request, RequestOption,
 *     JarvisId}); the last holds the failing keyword
 * @param owner the component that declares {@link #field}, or the validated one if none does
 * @param field the last property stepped into ({@code id}); {@code null} if none
 * @param keywordNode the failing keyword's value in the spec
 * @param conditional the innermost {@code if/then} the keyword sits under; {@code null} if none
 * @param branches the {@code anyOf} branches taken, outermost first
 * @param atBranchRoot whether the keyword sits directly in the innermost branch
 */
record SchemaTrail(
    List<String> components,
    String owner,
    String field,
    JsonNode keywordNode,
    Conditional conditional,
    List<Branch> branches,
    boolean atBranchRoot) {

  /**
   * An {@code if/then} the keyword sits under.
   *
   * @param ifSchema the {@code if} that selected the {@code then}
   * @param instanceDepth how many instance path segments lead to the object the {@code if} tested
   * @param component the component schema whose {@code if/then} it is
   */
  record Conditional(JsonNode ifSchema, int instanceDepth, String component) {}

  /**
   * One {@code anyOf} branch taken.
   *
   * @param anyOf evaluation path of the {@code anyOf} keyword
   * @param index the branch
   * @param branchCount how many branches the {@code anyOf} has
   * @param instanceDepth how many instance path segments lead to the value the {@code anyOf} tested
   */
  record Branch(String anyOf, int index, int branchCount, int instanceDepth) {}

  /** The component holding the failing keyword. */
  String component() {
    return components.get(components.size() - 1);
  }

  /** The component from which the failing keyword's component was referenced; else itself. */
  String enclosing() {
    return components.size() < 2 ? component() : components.get(components.size() - 2);
  }

  boolean isConditional() {
    return conditional != null;
  }

  static SchemaTrail walk(SpecTree spec, String root, List<String> evaluationPath) {
    return new Walk(spec, root).run(evaluationPath);
  }

  private static final class Walk {
    private final SpecTree spec;
    private final List<String> components = new ArrayList<>();
    private final List<Branch> branches = new ArrayList<>();
    private final StringBuilder path = new StringBuilder();
    private JsonNode node;
    private String owner;
    private String field;
    private Conditional conditional;
    private int instanceDepth;
    private boolean atBranchRoot;

    Walk(SpecTree spec, String root) {
      this.spec = spec;
      this.components.add(root);
      this.node = spec.schema(root);
      this.owner = root;
    }

    SchemaTrail run(List<String> evaluationPath) {
      int last = evaluationPath.size() - 1;
      String expect = "";
      for (int i = 0; i < last; i++) {
        String segment = evaluationPath.get(i);
        atBranchRoot = false;
        switch (expect) {
          case "property" -> {
            owner = components.get(components.size() - 1);
            field = segment;
            instanceDepth++;
            node = node.path(segment);
            expect = "";
          }
          case "index" -> {
            int index = Integer.parseInt(segment);
            if (path.toString().endsWith("/anyOf")) {
              branches.add(new Branch(path.toString(), index, node.size(), instanceDepth));
              atBranchRoot = true;
            }
            node = node.path(index);
            expect = "";
          }
          default -> expect = step(segment);
        }
        path.append('/').append(segment);
      }
      JsonNode keywordNode = last < 0 ? node : node.path(evaluationPath.get(last));
      return new SchemaTrail(
          List.copyOf(components),
          owner,
          field,
          keywordNode,
          conditional,
          List.copyOf(branches),
          atBranchRoot);
    }

    /** Steps into a keyword; answers what the next segment is. */
    private String step(String keyword) {
      switch (keyword) {
        case "$ref" -> {
          String component = SpecTree.componentOf(node.path("$ref").asText());
          components.add(component);
          node = spec.schema(component);
          return "";
        }
        case "properties" -> {
          node = node.path(keyword);
          return "property";
        }
        case "allOf", "anyOf", "oneOf" -> {
          node = node.path(keyword);
          return "index";
        }
        case "items", "additionalProperties" -> {
          instanceDepth++;
          node = node.path(keyword);
          return "";
        }
        case "then", "else" -> {
          conditional =
              new Conditional(
                  node.path("if"), instanceDepth, components.get(components.size() - 1));
          node = node.path(keyword);
          return "";
        }
        default -> {
          node = node.path(keyword);
          return "";
        }
      }
    }
  }
}
