package dev.jarvis.cli.load;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The light load's HTTP: one blocking HTTP/1.1 keep-alive connection over a plain socket, opened on
 * first use and again after a failure or a {@code Connection: close}. It writes a request in one
 * write and reads the answer's status, headers and body (by {@code Content-Length}, chunked, or to
 * the end of the connection); nothing else of HTTP (no redirects, no TLS, no {@code Expect}). A
 * load thread spends a fraction of {@code java.net.http}'s CPU on it: no selector thread to hand
 * each answer over, no per-request objects beyond the bytes.
 *
 * <p>Not thread-safe: one per load connection.
 */
final class PlainHttpConnection implements Closeable {

  private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
  private static final int READ_TIMEOUT_MILLIS = 10_000;

  private final InetSocketAddress address;
  private final String hostHeader;
  private Socket socket;
  private InputStream in;
  private OutputStream out;
  private final byte[] buffer = new byte[16 * 1024];
  private int position;
  private int limit;

  /**
   * @throws IllegalArgumentException if {@code base} is not an {@code http} URI with a host
   */
  PlainHttpConnection(URI base) {
    requirePlainHttp(base);
    int port = base.getPort() < 0 ? 80 : base.getPort();
    this.address = InetSocketAddress.createUnresolved(base.getHost(), port);
    this.hostHeader = base.getPort() < 0 ? base.getHost() : base.getHost() + ":" + port;
  }

  /**
   * @throws IllegalArgumentException if {@code base} is not an {@code http} URI with a host
   */
  static void requirePlainHttp(URI base) {
    if (!"http".equalsIgnoreCase(base.getScheme()) || base.getHost() == null) {
      throw new IllegalArgumentException(
          "the light load speaks plain HTTP only, not " + base.getScheme() + ": " + base);
    }
  }

  /**
   * Sends one request and reads its answer. On any failure the connection is closed (the next
   * request opens another) and the failure thrown.
   *
   * @param target the request target: path and query
   * @param headers every header to send but {@code Host} and {@code Content-Length}
   */
  LoadAnswer exchange(String method, String target, Map<String, String> headers, byte[] body)
      throws IOException {
    StringBuilder head = new StringBuilder(512);
    head.append(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: ");
    head.append(hostHeader).append("\r\n");
    headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
    if (body.length > 0 || !method.equals("GET")) {
      head.append("Content-Length: ").append(body.length).append("\r\n");
    }
    head.append("\r\n");
    byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
    byte[] request = Arrays.copyOf(headBytes, headBytes.length + body.length);
    System.arraycopy(body, 0, request, headBytes.length, body.length);
    try {
      open();
      out.write(request);
      out.flush();
      LoadAnswer answer;
      do {
        answer = readAnswer(method);
      } while (answer.status() / 100 == 1); // an interim answer: the final one follows
      if (closes(answer)) {
        close();
      }
      return answer;
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  private void open() throws IOException {
    if (socket != null) {
      return;
    }
    Socket opened = new Socket();
    try {
      opened.setTcpNoDelay(true);
      opened.setSoTimeout(READ_TIMEOUT_MILLIS);
      opened.connect(
          new InetSocketAddress(address.getHostString(), address.getPort()),
          CONNECT_TIMEOUT_MILLIS);
    } catch (IOException e) {
      opened.close();
      throw e;
    }
    socket = opened;
    in = opened.getInputStream();
    out = opened.getOutputStream();
    position = 0;
    limit = 0;
  }

  private LoadAnswer readAnswer(String method) throws IOException {
    String statusLine = line();
    // HTTP/1.1 201 Created
    if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12) {
      throw new ProtocolException("not an HTTP/1.x status line: " + statusLine);
    }
    int status;
    try {
      status = Integer.parseInt(statusLine.substring(9, 12));
    } catch (NumberFormatException e) {
      throw new ProtocolException("not an HTTP/1.x status line: " + statusLine);
    }
    Map<String, String> headers = new HashMap<>();
    if (statusLine.startsWith("HTTP/1.0")) {
      headers.put("connection", "close"); // until the answer says keep-alive
    }
    for (String line = line(); !line.isEmpty(); line = line()) {
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw new ProtocolException("not a header line: " + line);
      }
      String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).trim();
      headers.merge(name, value, (a, b) -> a + ", " + b);
    }
    byte[] body;
    String length = headers.get("content-length");
    if (status / 100 == 1 || status == 204 || status == 304 || method.equals("HEAD")) {
      body = new byte[0];
    } else if (headers
        .getOrDefault("transfer-encoding", "")
        .toLowerCase(Locale.ROOT)
        .contains("chunked")) {
      body = chunked();
    } else if (length != null) {
      body = exactly(contentLength(length));
    } else {
      headers.put("connection", "close"); // the body is the rest of the connection
      body = toEnd();
    }
    return new LoadAnswer(status, headers, body);
  }

  private static int contentLength(String text) throws ProtocolException {
    try {
      int length = Integer.parseInt(text.trim());
      if (length >= 0) {
        return length;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new ProtocolException("not a Content-Length: " + text);
  }

  private static boolean closes(LoadAnswer answer) {
    String connection = answer.headers().getOrDefault("connection", "");
    return connection.toLowerCase(Locale.ROOT).contains("close");
  }

  private byte[] chunked() throws IOException {
    byte[] body = new byte[0];
    while (true) {
      String size = line();
      int semicolon = size.indexOf(';');
      int length;
      try {
        length = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
      } catch (NumberFormatException e) {
        throw new ProtocolException("not a chunk size: " + size);
      }
      if (length == 0) {
        for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
          // trailers are not needed
        }
        return body;
      }
      byte[] chunk = exactly(length);
      int before = body.length;
      body = Arrays.copyOf(body, before + length);
      System.arraycopy(chunk, 0, body, before, length);
      if (!line().isEmpty()) {
        throw new ProtocolException("a chunk longer than its size");
      }
    }
  }

  private byte[] exactly(int length) throws IOException {
    byte[] body = new byte[length];
    int have = Math.min(length, limit - position);
    System.arraycopy(buffer, position, body, 0, have);
    position += have;
    while (have < length) {
      int read = in.read(body, have, length - have);
      if (read < 0) {
        throw new EOFException("the connection closed " + (length - have) + " bytes short");
      }
      have += read;
    }
    return body;
  }

  private byte[] toEnd() throws IOException {
    byte[] body = Arrays.copyOfRange(buffer, position, limit);
    position = limit;
    byte[] rest = in.readAllBytes();
    byte[] all = Arrays.copyOf(body, body.length + rest.length);
    System.arraycopy(rest, 0, all, body.length, rest.length);
    return all;
  }

  /** One line without its CRLF (or LF), as ISO-8859-1. */
  private String line() throws IOException {
    StringBuilder started = null; // a line that runs past the buffered bytes
    while (true) {
      for (int i = position; i < limit; i++) {
        if (buffer[i] == '\n') {
          if (started == null) {
            int end = i > position && buffer[i - 1] == '\r' ? i - 1 : i;
            String line = new String(buffer, position, end - position, StandardCharsets.ISO_8859_1);
            position = i + 1;
            return line;
          }
          started.append(new String(buffer, position, i - position, StandardCharsets.ISO_8859_1));
          position = i + 1;
          int length = started.length();
          return length > 0 && started.charAt(length - 1) == '\r'
              ? started.substring(0, length - 1)
              : started.toString();
        }
      }
      if (started == null) {
        started = new StringBuilder();
      }
      started.append(new String(buffer, position, limit - position, StandardCharsets.ISO_8859_1));
      if (started.length() > buffer.length) {
        throw new ProtocolException("a line longer than " + buffer.length + " bytes");
      }
      position = 0;
      limit = 0;
      int read = in.read(buffer, 0, buffer.length);
      if (read < 0) {
        throw new EOFException("the connection closed before the answer ended");
      }
      limit = read;
    }
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException e) {
        // closing a broken connection: nothing left to do with it
      }
      socket = null;
      in = null;
      out = null;
    }
  }
}
