package dev.jarvis.core.validation.internal;

import java.util.List;

/**
 * One broken JSON Schema keyword, as evaluating a payload against a component schema reports it:
 * the form the violation mapping reads, whichever evaluator produced it.
 *
 * @param keyword the keyword that failed ({@code required}, {@code x-jarvis-unique-by}…)
 * @param property the property an object-level keyword names (missing, unexpected, badly named);
 *     {@code null} for value keywords
 * @param instancePath where the keyword was applied in the payload: member names ({@code String})
 *     and array indexes ({@code Integer})
 * @param evaluationPath the keywords and names walked from the component schema to the failing
 *     keyword, {@code $ref} included, the failing keyword last
 * @param arguments the keyword's details ({@code x-jarvis-unique-by}: rejection id, first index)
 * @param message what is wrong, without the location
 */
public record SchemaError(
    String keyword,
    String property,
    List<Object> instancePath,
    List<String> evaluationPath,
    List<Object> arguments,
    String message) {}
