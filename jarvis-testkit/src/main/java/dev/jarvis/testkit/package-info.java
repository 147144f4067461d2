/**
 * The test kit: {@link dev.jarvis.testkit.JarvisHostStub}, a Jarvis host for JUnit 5 tests on
 * WireMock, whose every protocol decision is the host kit's.
 */
package dev.jarvis.testkit;
