/**
 * The raw protocol transport of the conformance suite and the load generator: it sends exactly the
 * method, headers and body bytes it is given, deliberately wrong ones included, and hands back each
 * exchange: the request as sent beside the answer as received.
 *
 * <p>Not for agents: {@code JarvisClient} is the client. This transport fills in nothing (no
 * protocol header, no {@code Authorization}, no {@code Content-Type}), checks nothing and retries
 * nothing, which is what a tool probing a host, or measuring one, needs. It lives in the client
 * module so that tools share it without depending on host code, and depends only on the JDK's
 * {@code java.net.http} and the core's operation list.
 */
package dev.jarvis.client.raw;
