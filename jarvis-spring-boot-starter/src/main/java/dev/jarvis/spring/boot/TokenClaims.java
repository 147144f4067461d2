package dev.jarvis.spring.boot;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.AbstractOAuth2Token;
import org.springframework.security.oauth2.core.ClaimAccessor;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;

/**
 * A claim of an OAuth2 principal as Actor ids. Its own class so that {@link SpringSecurityHostAuth}
 * loads without spring-security-oauth2-core: only called when that is on the class path.
 */
final class TokenClaims {

  private TokenClaims() {}

  /**
   * The claim's strings: a JWT ({@link ClaimAccessor}) or an introspected token ({@link
   * OAuth2AuthenticatedPrincipal}); a JSON array of strings, or one string. Anything else (no such
   * claim, a number, blank entries) names no Actor: a malformed claim grants nothing.
   *
   * <p>Only for a bearer token the chain verified (the Authentication's credentials are the token:
   * a resource server's JWT or introspected token). A login session's user ({@code oauth2Login},
   * OIDC) also carries claims, but from a userinfo endpoint whose attributes some providers let the
   * user edit: they name no Actor.
   */
  static List<String> stringList(Authentication authentication, String claim) {
    if (!(authentication.getCredentials() instanceof AbstractOAuth2Token)) {
      return List.of();
    }
    Object principal = authentication.getPrincipal();
    Map<String, Object> claims =
        principal instanceof ClaimAccessor token
            ? token.getClaims()
            : principal instanceof OAuth2AuthenticatedPrincipal user ? user.getAttributes() : null;
    Object value = claims == null ? null : claims.get(claim);
    if (value instanceof String one) {
      return one.isBlank() ? List.of() : List.of(one);
    }
    if (value instanceof Collection<?> many) {
      return many.stream()
          .filter(String.class::isInstance)
          .map(String.class::cast)
          .filter(id -> !id.isBlank())
          .toList();
    }
    return List.of();
  }
}
