/**
 * The host kit as a servlet ({@link dev.jarvis.host.servlet.JarvisServlet}): a thin binding on the
 * Jakarta Servlet API, for a service that already runs a servlet container (Spring MVC on Tomcat,
 * Jetty, Undertow) and needs no JAX-RS runtime for Jarvis.
 */
package dev.jarvis.host.servlet;
