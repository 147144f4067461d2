package dev.jarvis.spring.ai;

import java.util.ArrayList;
import java.util.List;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * A model without a network: its first answer asks for one tool call; its next answer is final and
 * quotes what the tool call returned, so a test can read what the model was told.
 */
final class ScriptedChatModel implements ChatModel {

  private final String tool;
  private final String arguments;
  final List<String> toldByTools = new ArrayList<>();

  ScriptedChatModel(String tool, String arguments) {
    this.tool = tool;
    this.arguments = arguments;
  }

  /** Tool-calling options, as a provider's model has: ChatClient's tool loop needs them. */
  @Override
  public ChatOptions getOptions() {
    return ToolCallingChatOptions.builder().build();
  }

  @Override
  public ChatResponse call(Prompt prompt) {
    List<Message> messages = prompt.getInstructions();
    Message last = messages.get(messages.size() - 1);
    if (last instanceof ToolResponseMessage response) {
      String said = response.getResponses().get(0).responseData();
      toldByTools.add(said);
      return new ChatResponse(
          List.of(new Generation(new AssistantMessage("The tool said: " + said))));
    }
    AssistantMessage callTool =
        AssistantMessage.builder()
            .content("")
            .toolCalls(
                List.of(new AssistantMessage.ToolCall("call-1", "function", tool, arguments)))
            .build();
    return new ChatResponse(List.of(new Generation(callTool)));
  }
}
