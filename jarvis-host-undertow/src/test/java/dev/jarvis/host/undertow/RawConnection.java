package dev.jarvis.host.undertow;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One HTTP/1.1 connection on loopback, written byte by byte as a test wants it (an incomplete
 * request, too many headers), read back as status, headers and body. Reads give up after ten
 * seconds, a bound that only a broken server reaches.
 */
final class RawConnection implements AutoCloseable {

  /** An answer as read from the socket. */
  record Reply(int status, Map<String, String> headers, String body) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  RawConnection(int port) throws IOException {
    socket = new Socket(InetAddress.getLoopbackAddress(), port);
    socket.setSoTimeout(10_000);
    socket.setTcpNoDelay(true);
    in = socket.getInputStream();
    out = socket.getOutputStream();
  }

  RawConnection send(String text) throws IOException {
    return send(text.getBytes(StandardCharsets.UTF_8));
  }

  RawConnection send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
    return this;
  }

  /** Reads one answer; fails if the connection closes first. */
  Reply read() throws IOException {
    String statusLine = line();
    if (statusLine == null) {
      throw new IOException("the connection closed with no answer");
    }
    int status = Integer.parseInt(statusLine.split(" ")[1]);
    Map<String, String> headers = new TreeMap<>();
    String line;
    while ((line = line()) != null && !line.isEmpty()) {
      int colon = line.indexOf(':');
      headers.put(
          line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
          line.substring(colon + 1).trim());
    }
    int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
    byte[] body = in.readNBytes(length);
    return new Reply(status, headers, new String(body, StandardCharsets.UTF_8));
  }

  /** Whether the server closed the connection (end of stream, or reset) before sending more. */
  boolean closedByServer() throws IOException {
    try {
      return in.read() == -1;
    } catch (SocketTimeoutException stillOpen) {
      return false;
    } catch (IOException reset) {
      return true;
    }
  }

  private String line() throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != -1) {
      if (b == '\n') {
        String text = buffer.toString(StandardCharsets.ISO_8859_1);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
      }
      buffer.write(b);
    }
    return buffer.size() == 0 ? null : buffer.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
