package dev.jarvis.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * A model without a network: its first answer asks for one tool call; its next answer is final and
 * quotes what the tool call returned, so a test can read what the model was told.
 */
final class ScriptedChatModel implements ChatModel {

  private final ToolExecutionRequest toolCall;
  final List<ToolExecutionResultMessage> toldByTools = new ArrayList<>();

  ScriptedChatModel(String tool, String arguments) {
    this.toolCall =
        ToolExecutionRequest.builder().id("call-1").name(tool).arguments(arguments).build();
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    List<ChatMessage> messages = request.messages();
    ChatMessage last = messages.get(messages.size() - 1);
    if (last instanceof ToolExecutionResultMessage result) {
      toldByTools.add(result);
      return ChatResponse.builder()
          .aiMessage(AiMessage.from("The tool said: " + result.text()))
          .build();
    }
    return ChatResponse.builder().aiMessage(AiMessage.from(toolCall)).build();
  }
}
