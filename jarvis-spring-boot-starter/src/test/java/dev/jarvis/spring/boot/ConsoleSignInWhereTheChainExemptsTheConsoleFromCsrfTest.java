package dev.jarvis.spring.boot;

import org.springframework.test.context.TestPropertySource;

/**
 * The same sign-in through the service's own login, behind a chain that leaves the console's path
 * out of its CSRF protection: the console checks the session's CSRF token itself, so a POST without
 * it is still refused and one with it still recorded.
 */
@TestPropertySource(properties = "test.console-exempt-from-csrf=true")
class ConsoleSignInWhereTheChainExemptsTheConsoleFromCsrfTest
    extends ConsoleSignInThroughTheServicesLoginTest {}
