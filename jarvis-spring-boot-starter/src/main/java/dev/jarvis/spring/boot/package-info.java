/**
 * Spring Boot auto-configuration of a Jarvis host inside an existing service ({@code
 * jarvis.host.*}); see {@code docs/host.md}, section "Spring Boot".
 */
package dev.jarvis.spring.boot;
