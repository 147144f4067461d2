package dev.jarvis.core.validation.internal;

import com.networknt.schema.regex.JDKRegularExpressionFactory;
import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;

/**
 * The spec's {@code pattern}s, matched by java.util.regex as the JSON Schema validator does by
 * default, except that a match that would exhaust the thread's stack counts as no match.
 *
 * <p>java.util.regex recurses once per repetition of a group: the spec's extension-namespace
 * pattern ends in {@code (\.[a-z0-9_-]+)+}, and an {@code extensions} key of a few thousand
 * segments threw {@link StackOverflowError} out of the validator. Text too long for the engine to
 * judge is refused instead, as not matching the pattern; no shorter text is judged differently. The
 * overflow unwinds inside {@link RegularExpression#matches}, before anything else is touched, which
 * is what makes catching it safe.
 */
final class StackSafeRegularExpressions implements RegularExpressionFactory {

  @Override
  public RegularExpression getRegularExpression(String regex) {
    RegularExpression jdk = JDKRegularExpressionFactory.getInstance().getRegularExpression(regex);
    return text -> {
      try {
        return jdk.matches(text);
      } catch (StackOverflowError tooLongToJudge) {
        return false;
      }
    };
  }
}
