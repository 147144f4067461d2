package dev.jarvis.spring.boot;

import dev.jarvis.host.HostAuth;
import dev.jarvis.host.Principal;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.util.ClassUtils;

/**
 * HostAuth from the service's Spring Security: the caller is whoever the service's security filter
 * chain authenticated for this request (a JWT from the company's OIDC provider, say), not a token
 * of the credentials file. The mapping rule, the only one:
 *
 * <ul>
 *   <li>no Authentication, or an anonymous or unauthenticated one: no principal, refused exactly as
 *       a request without a credential is ({@code 401 unauthorized_actor});
 *   <li>the Actors it may act as: the ids listed in the token claim {@code actorsClaim} (an OAuth2
 *       token's claims or attributes: a JSON array of strings, or one string), and the ids that
 *       follow {@code actorAuthorityPrefix} in its granted authorities;
 *   <li>it administers the host (registers Workers and Actors, as the admin Actor it must also be
 *       allowed to act as) when it holds the authority {@code adminAuthority}.
 * </ul>
 *
 * The host kit still checks everything after that: a principal that may act as actor A is refused
 * as B, and gets no more than A's own authority. The {@code Authorization} header is not read here:
 * the filter chain already did, and a request the chain did not authenticate carries no
 * Authentication. The Authentication is read from {@link SecurityContextHolder} on the request's
 * thread, where the servlet answers.
 */
public final class SpringSecurityHostAuth implements HostAuth {

  /** The claim listing the Actor ids, unless configured otherwise. */
  public static final String DEFAULT_ACTORS_CLAIM =
      JarvisHostProperties.SpringSecurity.DEFAULT_ACTORS_CLAIM;

  /** The authority prefix naming an Actor id, unless configured otherwise. */
  public static final String DEFAULT_ACTOR_AUTHORITY_PREFIX =
      JarvisHostProperties.SpringSecurity.DEFAULT_ACTOR_AUTHORITY_PREFIX;

  /** The authority that administers the host, unless configured otherwise. */
  public static final String DEFAULT_ADMIN_AUTHORITY =
      JarvisHostProperties.SpringSecurity.DEFAULT_ADMIN_AUTHORITY;

  private static final boolean OAUTH2_PRESENT =
      ClassUtils.isPresent(
          "org.springframework.security.oauth2.core.ClaimAccessor",
          SpringSecurityHostAuth.class.getClassLoader());

  private final String actorsClaim;
  private final String actorAuthorityPrefix;
  private final String adminAuthority;
  private final AuthenticationTrustResolver trust = new AuthenticationTrustResolverImpl();

  private SpringSecurityHostAuth(
      String actorsClaim, String actorAuthorityPrefix, String adminAuthority) {
    this.actorsClaim = requireText(actorsClaim, "actorsClaim");
    this.actorAuthorityPrefix = requireText(actorAuthorityPrefix, "actorAuthorityPrefix");
    this.adminAuthority = requireText(adminAuthority, "adminAuthority");
  }

  /** The rule with these names (see the class). */
  public static SpringSecurityHostAuth of(
      String actorsClaim, String actorAuthorityPrefix, String adminAuthority) {
    return new SpringSecurityHostAuth(actorsClaim, actorAuthorityPrefix, adminAuthority);
  }

  /** The rule with the default names: claim jarvis_actors, JARVIS_ACTOR_*, JARVIS_ADMIN. */
  public static SpringSecurityHostAuth withDefaults() {
    return of(DEFAULT_ACTORS_CLAIM, DEFAULT_ACTOR_AUTHORITY_PREFIX, DEFAULT_ADMIN_AUTHORITY);
  }

  @Override
  public Optional<Principal> principal(Optional<String> authorization) {
    return principalOf(SecurityContextHolder.getContext().getAuthentication());
  }

  /** The principal of an Authentication by the rule of the class; empty for none. */
  public Optional<Principal> principalOf(Authentication authentication) {
    if (!trust.isAuthenticated(authentication)) {
      return Optional.empty();
    }
    Set<String> actors = new LinkedHashSet<>();
    boolean admin = false;
    for (GrantedAuthority granted : authentication.getAuthorities()) {
      String authority = granted.getAuthority();
      if (authority == null) {
        continue;
      }
      if (authority.equals(adminAuthority)) {
        admin = true;
      }
      if (authority.startsWith(actorAuthorityPrefix)
          && authority.length() > actorAuthorityPrefix.length()) {
        actors.add(authority.substring(actorAuthorityPrefix.length()));
      }
    }
    if (OAUTH2_PRESENT) {
      actors.addAll(TokenClaims.stringList(authentication, actorsClaim));
    }
    return Optional.of(Principal.of(actors, admin));
  }

  /** What the start-up line says of the rule. */
  String describe() {
    return "the service's Spring Security (Actors from claim "
        + actorsClaim
        + " and authorities "
        + actorAuthorityPrefix
        + "*, admin "
        + adminAuthority
        + ")";
  }

  private static String requireText(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
    return value;
  }
}
