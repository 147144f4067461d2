package dev.jarvis.host.reference;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on loopback between a host's pool and a database, for cutting the link without
 * touching the database itself (the machine's PostgreSQL is shared: never stop it from a test).
 * {@link #cut()} drops every open connection and refuses new ones, as a database that went away;
 * {@link #restore()} forwards again.
 */
final class LinkProxy implements AutoCloseable {

  private final ServerSocket server;
  private final InetSocketAddress target;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile boolean cut;

  LinkProxy(String targetHost, int targetPort) throws IOException {
    this.target = new InetSocketAddress(targetHost, targetPort);
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "link-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** The port to connect to instead of the database's. */
  int port() {
    return server.getLocalPort();
  }

  /** Drops every open connection; new ones are closed as soon as they are accepted. */
  void cut() {
    cut = true;
    for (Socket socket : open) {
      closeQuietly(socket);
    }
    open.clear();
  }

  /** Forwards new connections again. */
  void restore() {
    cut = false;
  }

  private void accept() {
    while (!server.isClosed()) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      if (cut) {
        closeQuietly(client);
        continue;
      }
      Socket upstream = new Socket();
      try {
        upstream.connect(target, 5_000);
      } catch (IOException e) {
        closeQuietly(client);
        closeQuietly(upstream);
        continue;
      }
      open.add(client);
      open.add(upstream);
      pipe(client, upstream);
      pipe(upstream, client);
    }
  }

  private void pipe(Socket from, Socket to) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // The other side or cut() closed it.
              } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
              }
            },
            "link-proxy-pipe");
    thread.setDaemon(true);
    thread.start();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // Already closed.
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    cut();
  }
}
