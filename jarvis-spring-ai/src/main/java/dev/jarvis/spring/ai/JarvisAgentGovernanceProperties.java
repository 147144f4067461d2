package dev.jarvis.spring.ai;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** How an agent's Spring AI tools are governed: {@code jarvis.agent.governance.*}. */
@ConfigurationProperties("jarvis.agent.governance")
public class JarvisAgentGovernanceProperties {

  /** Whether the agent's tools are governed (a JarvisToolGovernance bean is made). */
  private boolean enabled = true;

  /**
   * The WorkSession tool calls are governed in when their ToolContext names none
   * (jarvis.work_session_id). Unset and no WorkSessionSupplier bean: such calls are refused.
   */
  private String workSessionId;

  /** How long a tool call waits for the human's answer to its Request before it does not run. */
  private Duration reviewWait = Duration.ofMinutes(30);

  /** How long the Request stays open on the host; the review wait when unset. */
  private Duration requestExpiresIn;

  /** Whether every ToolCallbackProvider bean is replaced by one whose callbacks are governed. */
  private boolean decorateProviders = true;

  /**
   * The mapping, by tool name: each tool's action, risk and where its target and scope come from. A
   * tool not named here (and not mapped by a ToolActionMapping bean) never runs.
   */
  private Map<String, Tool> tools = new LinkedHashMap<>();

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public String getWorkSessionId() {
    return workSessionId;
  }

  public void setWorkSessionId(String workSessionId) {
    this.workSessionId = workSessionId;
  }

  public Duration getReviewWait() {
    return reviewWait;
  }

  public void setReviewWait(Duration reviewWait) {
    this.reviewWait = reviewWait;
  }

  public Duration getRequestExpiresIn() {
    return requestExpiresIn;
  }

  public void setRequestExpiresIn(Duration requestExpiresIn) {
    this.requestExpiresIn = requestExpiresIn;
  }

  public boolean isDecorateProviders() {
    return decorateProviders;
  }

  public void setDecorateProviders(boolean decorateProviders) {
    this.decorateProviders = decorateProviders;
  }

  public Map<String, Tool> getTools() {
    return tools;
  }

  public void setTools(Map<String, Tool> tools) {
    this.tools = tools;
  }

  /** One tool's row of the mapping. */
  public static class Tool {

    /** The action's name as the Policy names it; the tool's name when unset. */
    private String action;

    /** The risk class the agent declares for the tool's calls (low, medium, high, critical). */
    private String risk;

    /** A fixed target ref for every call. */
    private String target;

    /** The argument whose value is the target ref; a call without it never runs. */
    private String targetArgument;

    /** Put before the target argument's value (for example "source:"). */
    private String targetPrefix = "";

    /** A fixed scope ref for every call. */
    private String scope;

    /** The argument whose value is the scope ref; a call without it never runs. */
    private String scopeArgument;

    /** Put before the scope argument's value. */
    private String scopePrefix = "";

    /** The data sensitivity the calls declare (public, private, confidential, restricted). */
    private String dataSensitivity;

    /** The grant refs the calls use. */
    private List<String> grants = new ArrayList<>();

    public String getAction() {
      return action;
    }

    public void setAction(String action) {
      this.action = action;
    }

    public String getRisk() {
      return risk;
    }

    public void setRisk(String risk) {
      this.risk = risk;
    }

    public String getTarget() {
      return target;
    }

    public void setTarget(String target) {
      this.target = target;
    }

    public String getTargetArgument() {
      return targetArgument;
    }

    public void setTargetArgument(String targetArgument) {
      this.targetArgument = targetArgument;
    }

    public String getTargetPrefix() {
      return targetPrefix;
    }

    public void setTargetPrefix(String targetPrefix) {
      this.targetPrefix = targetPrefix;
    }

    public String getScope() {
      return scope;
    }

    public void setScope(String scope) {
      this.scope = scope;
    }

    public String getScopeArgument() {
      return scopeArgument;
    }

    public void setScopeArgument(String scopeArgument) {
      this.scopeArgument = scopeArgument;
    }

    public String getScopePrefix() {
      return scopePrefix;
    }

    public void setScopePrefix(String scopePrefix) {
      this.scopePrefix = scopePrefix;
    }

    public String getDataSensitivity() {
      return dataSensitivity;
    }

    public void setDataSensitivity(String dataSensitivity) {
      this.dataSensitivity = dataSensitivity;
    }

    public List<String> getGrants() {
      return grants;
    }

    public void setGrants(List<String> grants) {
      this.grants = grants;
    }
  }
}
