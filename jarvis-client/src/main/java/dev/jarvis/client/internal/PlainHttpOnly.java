package dev.jarvis.client.internal;

import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The TLS setting of a client whose host is plain {@code http}: none. A client talks to one host
 * and follows no redirect, so it never opens a TLS connection; without this, building its {@code
 * HttpClient} would set up the JVM's default TLS (security providers, the trusted CA store), which
 * was most of a cold {@code JarvisClient.create} (see {@code docs/benchmarks.md}, client start).
 * Anything that asks it for TLS fails with a message that says why.
 */
final class PlainHttpOnly extends SSLContext {

  private static final String WHY =
      "this client was created for a plain-http host: it sets up no TLS; use an https:// base URI";

  PlainHttpOnly() {
    super(new NoTls(), null, "none");
  }

  private static final class NoTls extends SSLContextSpi {
    @Override
    protected void engineInit(KeyManager[] keys, TrustManager[] trust, SecureRandom random) {
      throw new UnsupportedOperationException(WHY);
    }

    @Override
    protected SSLSocketFactory engineGetSocketFactory() {
      throw new UnsupportedOperationException(WHY);
    }

    @Override
    protected SSLServerSocketFactory engineGetServerSocketFactory() {
      throw new UnsupportedOperationException(WHY);
    }

    @Override
    protected SSLEngine engineCreateSSLEngine() {
      throw new UnsupportedOperationException(WHY);
    }

    @Override
    protected SSLEngine engineCreateSSLEngine(String host, int port) {
      throw new UnsupportedOperationException(WHY);
    }

    @Override
    protected SSLSessionContext engineGetServerSessionContext() {
      throw new UnsupportedOperationException(WHY);
    }

    @Override
    protected SSLSessionContext engineGetClientSessionContext() {
      throw new UnsupportedOperationException(WHY);
    }

    // The HttpClient reads the defaults once, when built: empty, since no TLS will be spoken.
    @Override
    protected SSLParameters engineGetDefaultSSLParameters() {
      return new SSLParameters();
    }

    @Override
    protected SSLParameters engineGetSupportedSSLParameters() {
      return new SSLParameters();
    }
  }
}
