package dev.jarvis.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.host.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

/** The mapping rule from a Spring Security Authentication to the Actors its holder may act as. */
class SpringSecurityHostAuthTest {

  private final SpringSecurityHostAuth auth = SpringSecurityHostAuth.withDefaults();

  @AfterEach
  void clear() {
    SecurityContextHolder.clearContext();
  }

  static Stream<Arguments> noCaller() {
    return Stream.of(
        Arguments.of("no Authentication", null),
        Arguments.of(
            "an anonymous one",
            new AnonymousAuthenticationToken(
                "key", "anonymousUser", AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS"))),
        Arguments.of(
            "one not authenticated, whatever it lists",
            UsernamePasswordAuthenticationToken.unauthenticated("alice", "secret")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("noCaller")
  void withoutAnAuthenticatedCallerThereIsNoPrincipal(String what, Authentication authentication) {
    assertEquals(Optional.empty(), auth.principalOf(authentication));
  }

  @Test
  void theRequestsAuthenticationIsReadFromTheSecurityContextNotFromTheHeader() {
    SecurityContextHolder.getContext()
        .setAuthentication(
            UsernamePasswordAuthenticationToken.authenticated(
                "alice", null, AuthorityUtils.createAuthorityList("JARVIS_ACTOR_actor-alice")));
    assertEquals(
        Optional.of(Principal.of(Set.of("actor-alice"), false)),
        auth.principal(Optional.of("Bearer whatever")));
    SecurityContextHolder.clearContext();
    // A header alone, with no Authentication behind it, is no caller.
    assertEquals(Optional.empty(), auth.principal(Optional.of("Bearer whatever")));
  }

  @Test
  void authoritiesWithThePrefixNameActorsAndTheAdminAuthorityAdministers() {
    Principal principal =
        auth.principalOf(
                UsernamePasswordAuthenticationToken.authenticated(
                    "ops",
                    null,
                    AuthorityUtils.createAuthorityList(
                        "JARVIS_ACTOR_host-admin", "JARVIS_ADMIN", "JARVIS_ACTOR_", "ROLE_USER")))
            .orElseThrow();
    assertEquals(Principal.of(Set.of("host-admin"), true), principal);
    assertFalse(principal.mayActAs("ROLE_USER"));
  }

  @Test
  void theJwtsClaimListsActorsAndAMalformedClaimGrantsNothing() {
    assertEquals(
        Set.of("actor-a", "actor-b"),
        actorsOf(Map.of("jarvis_actors", List.of("actor-a", "actor-b", ""))));
    assertEquals(Set.of("actor-a"), actorsOf(Map.of("jarvis_actors", "actor-a")));
    assertEquals(Set.of(), actorsOf(Map.of("jarvis_actors", 42)));
    assertEquals(Set.of(), actorsOf(Map.of("other_claim", List.of("actor-a"))));
  }

  @Test
  void theClaimAuthorityPrefixAndAdminAuthorityAreTheOnesConfigured() {
    SpringSecurityHostAuth custom = SpringSecurityHostAuth.of("acts_as", "ACTS_AS_", "SCOPE_admin");
    Jwt jwt = jwt(Map.of("acts_as", List.of("actor-a"), "jarvis_actors", List.of("actor-b")));
    Principal principal =
        custom
            .principalOf(
                new JwtAuthenticationToken(
                    jwt, AuthorityUtils.createAuthorityList("SCOPE_admin", "ACTS_AS_actor-c")))
            .orElseThrow();
    assertEquals(Principal.of(Set.of("actor-a", "actor-c"), true), principal);
    assertTrue(custom.describe().contains("acts_as"));
  }

  @Test
  void aLoginSessionsUserAttributesNameNoActorOnlyAVerifiedBearerTokensClaimsDo() {
    Map<String, Object> claims = Map.of("sub", "alice", "jarvis_actors", List.of("actor-b"));
    // oauth2Login: the user's attributes come from a userinfo endpoint, the credentials are none.
    var user =
        new org.springframework.security.oauth2.core.user.DefaultOAuth2User(
            AuthorityUtils.createAuthorityList("ROLE_USER"), claims, "sub");
    var login =
        new org.springframework.security.authentication.TestingAuthenticationToken(
            user, "", AuthorityUtils.createAuthorityList("ROLE_USER"));
    assertEquals(Set.of(), auth.principalOf(login).orElseThrow().actorIds());
    // Control: the same claims in a bearer JWT the chain verified.
    assertEquals(Set.of("actor-b"), actorsOf(claims));
  }

  private Set<String> actorsOf(Map<String, Object> claims) {
    return auth.principalOf(new JwtAuthenticationToken(jwt(claims), List.of()))
        .orElseThrow()
        .actorIds();
  }

  private static Jwt jwt(Map<String, Object> claims) {
    Instant at = Instant.parse("2026-01-01T00:00:00Z");
    return new Jwt("token", at, at.plusSeconds(60), Map.of("alg", "RS256"), claims);
  }
}
