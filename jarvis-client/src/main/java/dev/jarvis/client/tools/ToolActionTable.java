package dev.jarvis.client.tools;

import dev.jarvis.model.RiskClass;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The default {@link ToolActionMapping}: a table from tool name to a mapping, usually a {@link
 * ToolRule} (action named after the tool, risk from the table, target and scope from configured
 * arguments), or any mapping of its own for one tool (a per-tool override). A tool the table does
 * not name maps to nothing: it never runs ungoverned.
 *
 * <pre>{@code
 * ToolActionTable.builder()
 *     .tool("summarize", RiskClass.LOW)
 *     .tool(ToolRule.of("fetch_external_source", RiskClass.MEDIUM).targetFrom("url", "source:"))
 *     .tool("send_mail", call -> Optional.of(ToolAction.of("send_mail", RiskClass.HIGH)))
 *     .build();
 * }</pre>
 *
 * <p>Tool names match exactly (a look-alike name is another, unknown tool).
 */
public final class ToolActionTable implements ToolActionMapping {

  private final Map<String, ToolActionMapping> byTool;

  private ToolActionTable(Map<String, ToolActionMapping> byTool) {
    this.byTool = Map.copyOf(byTool);
  }

  /** An empty table: every call refused until tools are added. */
  public static Builder builder() {
    return new Builder();
  }

  /** Whether the table names {@code toolName}. */
  public boolean covers(String toolName) {
    return byTool.containsKey(toolName);
  }

  @Override
  public Optional<ToolAction> map(ToolCall call) {
    ToolActionMapping mapping = byTool.get(call.toolName());
    return mapping == null ? Optional.empty() : mapping.map(call);
  }

  @Override
  public String toString() {
    return "ToolActionTable" + byTool.keySet();
  }

  /** Builds a {@link ToolActionTable}; a later row for the same tool replaces the earlier one. */
  public static final class Builder {

    private final Map<String, ToolActionMapping> byTool = new LinkedHashMap<>();

    private Builder() {}

    /** {@code toolName}'s calls are the action of the same name at {@code risk}. */
    public Builder tool(String toolName, RiskClass risk) {
      return tool(ToolRule.of(toolName, risk));
    }

    /** A row. */
    public Builder tool(ToolRule rule) {
      byTool.put(rule.toolName(), rule);
      return this;
    }

    /** {@code toolName}'s calls are what {@code mapping} says (a per-tool override). */
    public Builder tool(String toolName, ToolActionMapping mapping) {
      byTool.put(Objects.requireNonNull(toolName, "toolName"), Objects.requireNonNull(mapping));
      return this;
    }

    public ToolActionTable build() {
      return new ToolActionTable(byTool);
    }
  }
}
