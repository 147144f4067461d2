/**
 * RFC 8785 JSON canonicalization and the SHA-256 hash texts of the Jarvis protocol.
 *
 * <p>{@link dev.jarvis.core.canonical.JcsCanonicalizer} writes the canonical bytes of raw JSON or a
 * Jackson tree; {@link dev.jarvis.core.canonical.Sha256Hash} hashes them into the {@code sha256:}
 * text form. What has no canonical form is refused with a {@link
 * dev.jarvis.core.canonical.CanonicalizationException}. The {@code internal} package is not API.
 */
package dev.jarvis.core.canonical;
