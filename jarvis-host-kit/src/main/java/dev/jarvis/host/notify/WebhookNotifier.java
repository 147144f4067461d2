package dev.jarvis.host.notify;

import dev.jarvis.core.notification.RequestNotification;
import dev.jarvis.core.notification.WebhookSignature;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * The built-in {@link RequestNotifier}: POSTs each notification's JSON to one URL, signed with
 * HMAC-SHA256 ({@link WebhookSignature}: {@code Jarvis-Webhook-Id}, {@code
 * Jarvis-Webhook-Timestamp}, {@code Jarvis-Webhook-Signature: v1=<base64>}); a 2xx answer is a
 * delivery, anything else (a 3xx included: redirects are never followed) a failed attempt.
 *
 * <p>Server-side request forgery: the target's name is resolved at every attempt and refused when
 * any address it has is loopback, link-local, private (site-local, IPv6 unique local, shared
 * 100.64/10), multicast, any-local or otherwise not routable on the internet, unless {@code
 * allowPrivate} (a receiver on the host's own network). The connection then goes to the very
 * address that was checked, never resolved again, so a DNS answer that changes between check and
 * connect (DNS rebinding) cannot redirect it. That is why this notifier speaks HTTP/1.1 over a
 * socket of its own rather than {@code java.net.http}, which on Java 17 resolves names itself; TLS
 * still checks the certificate against the URL's host name (SNI and endpoint identification).
 * Connect and answer times are bounded; the secret is never logged nor part of any message.
 */
public final class WebhookNotifier implements RequestNotifier {

  /** The connect bound unless configured. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

  /** The bound on sending and reading the answer's status line unless configured. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

  private static final int MAX_STATUS_LINE = 8 * 1024;

  /** Resolves a host name to its addresses (tests replace DNS). */
  @FunctionalInterface
  public interface Resolver {
    List<InetAddress> resolve(String host) throws UnknownHostException;
  }

  private final URI url;
  private final WebhookSignature signature;
  private final boolean allowPrivate;
  private final Duration connectTimeout;
  private final Duration requestTimeout;
  private final Clock clock;
  private final Resolver resolver;

  private WebhookNotifier(Builder b) {
    this.url = b.url;
    this.signature = WebhookSignature.withSecret(b.secret);
    this.allowPrivate = b.allowPrivate;
    this.connectTimeout = b.connectTimeout;
    this.requestTimeout = b.requestTimeout;
    this.clock = b.clock;
    this.resolver = b.resolver;
  }

  /**
   * A notifier POSTing to {@code url} ({@code http} or {@code https}, no user info) signed with
   * {@code secret} (at least {@value WebhookSignature#MIN_SECRET_BYTES} bytes).
   */
  public static Builder builder(URI url, byte[] secret) {
    return new Builder(url, secret);
  }

  @Override
  public void deliver(RequestNotification notification) throws Exception {
    InetAddress address = checkedAddress();
    byte[] body = notification.toJson();
    long timestamp = clock.instant().getEpochSecond();
    String signed = signature.sign(notification.id(), timestamp, body);
    int status = post(address, notification.id(), timestamp, signed, body);
    if (status / 100 != 2) {
      throw new IOException(
          "the receiver answered "
              + status
              + (status / 100 == 3 ? " (redirects are not followed)" : ""));
    }
  }

  /** The address to connect to: the first of the host's, each checked unless allowed. */
  private InetAddress checkedAddress() throws Exception {
    List<InetAddress> addresses = resolver.resolve(url.getHost());
    if (addresses.isEmpty()) {
      throw new UnknownHostException(url.getHost());
    }
    if (!allowPrivate) {
      for (InetAddress a : addresses) {
        if (!isPublic(a)) {
          throw new NotificationRefusedException(
              "the webhook host "
                  + url.getHost()
                  + " has the non-public address "
                  + a.getHostAddress()
                  + " (allow private addresses to send there)");
        }
      }
    }
    return addresses.get(0);
  }

  /** Whether {@code a} is an address on the public internet. */
  static boolean isPublic(InetAddress a) {
    if (a.isAnyLocalAddress()
        || a.isLoopbackAddress()
        || a.isLinkLocalAddress()
        || a.isSiteLocalAddress()
        || a.isMulticastAddress()) {
      return false;
    }
    byte[] b = a.getAddress();
    if (a instanceof Inet4Address) {
      int first = b[0] & 0xff;
      int second = b[1] & 0xff;
      return first != 0 // "this network"
          && !(first == 100 && second >= 64 && second < 128) // shared address space (CGNAT)
          && !(first == 192 && second == 0 && (b[2] & 0xff) == 0) // IETF protocol assignments
          && !(first == 198 && (second == 18 || second == 19)) // benchmarking
          && first < 240; // reserved and broadcast
    }
    if (a instanceof Inet6Address) {
      int first = b[0] & 0xff;
      boolean mapped = true;
      for (int i = 0; i < 10; i++) {
        mapped &= b[i] == 0;
      }
      if (mapped && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
        try {
          return isPublic(InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]}));
        } catch (UnknownHostException e) {
          return false;
        }
      }
      return (first & 0xfe) != 0xfc; // unique local fc00::/7
    }
    return false;
  }

  private int post(InetAddress address, String id, long timestamp, String signed, byte[] body)
      throws IOException {
    boolean tls = "https".equals(url.getScheme());
    int port = url.getPort() >= 0 ? url.getPort() : (tls ? 443 : 80);
    long deadline = System.nanoTime() + requestTimeout.toNanos();
    Socket plain = new Socket();
    try {
      plain.connect(new InetSocketAddress(address, port), (int) connectTimeout.toMillis());
      plain.setSoTimeout((int) requestTimeout.toMillis());
      Socket used = tls ? secure(plain, port) : plain;
      try {
        OutputStream out = used.getOutputStream();
        out.write(head(port, tls, id, timestamp, signed, body.length));
        out.write(body);
        out.flush();
        return status(used.getInputStream(), deadline);
      } finally {
        used.close();
      }
    } finally {
      plain.close();
    }
  }

  private Socket secure(Socket plain, int port) throws IOException {
    SSLSocket ssl =
        (SSLSocket)
            ((SSLSocketFactory) SSLSocketFactory.getDefault())
                .createSocket(plain, url.getHost(), port, true);
    SSLParameters parameters = ssl.getSSLParameters();
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    if (!isLiteral(url.getHost())) {
      parameters.setServerNames(List.of(new SNIHostName(url.getHost())));
    }
    ssl.setSSLParameters(parameters);
    ssl.startHandshake();
    return ssl;
  }

  private static boolean isLiteral(String host) {
    return host.startsWith("[") || host.chars().allMatch(c -> c == '.' || Character.isDigit(c));
  }

  private byte[] head(int port, boolean tls, String id, long timestamp, String signed, int length) {
    String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    if (url.getRawQuery() != null) {
      path += "?" + url.getRawQuery();
    }
    boolean defaultPort = port == (tls ? 443 : 80);
    String head =
        "POST "
            + path
            + " HTTP/1.1\r\n"
            + "Host: "
            + url.getHost()
            + (defaultPort ? "" : ":" + port)
            + "\r\n"
            + "Content-Type: application/json\r\n"
            + "Content-Length: "
            + length
            + "\r\n"
            + "User-Agent: jarvis-webhook/0.1\r\n"
            + WebhookSignature.ID
            + ": "
            + id
            + "\r\n"
            + WebhookSignature.TIMESTAMP
            + ": "
            + timestamp
            + "\r\n"
            + WebhookSignature.SIGNATURE
            + ": "
            + signed
            + "\r\n"
            + "Connection: close\r\n\r\n";
    return head.getBytes(StandardCharsets.UTF_8);
  }

  /** Reads the status line's code, within the deadline and {@value #MAX_STATUS_LINE} bytes. */
  private static int status(InputStream in, long deadline) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    while (line.size() < MAX_STATUS_LINE) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the receiver did not answer in time");
      }
      int c = in.read();
      if (c < 0 || c == '\n') {
        break;
      }
      line.write(c);
    }
    String[] parts = line.toString(StandardCharsets.ISO_8859_1).trim().split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new IOException("the receiver's answer is not HTTP/1.x");
    }
    try {
      return Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw new IOException("the receiver's status is not a number");
    }
  }

  @Override
  public String toString() {
    return "WebhookNotifier[" + url + (allowPrivate ? ", private addresses allowed" : "") + "]";
  }

  /** Builds a {@link WebhookNotifier}. */
  public static final class Builder {
    private final URI url;
    private final byte[] secret;
    private boolean allowPrivate;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private Clock clock = Clock.systemUTC();
    private Resolver resolver = host -> List.of(InetAddress.getAllByName(host));

    private Builder(URI url, byte[] secret) {
      Objects.requireNonNull(url, "url");
      String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
      if (!url.isAbsolute() || !(scheme.equals("http") || scheme.equals("https"))) {
        throw new IllegalArgumentException("a webhook URL is absolute, http or https: " + url);
      }
      if (url.getRawUserInfo() != null) {
        throw new IllegalArgumentException("a webhook URL carries no user info");
      }
      if (url.getHost() == null || url.getHost().isEmpty()) {
        throw new IllegalArgumentException("a webhook URL names a host: " + url);
      }
      this.url = url;
      this.secret = Objects.requireNonNull(secret, "secret").clone();
      WebhookSignature.withSecret(this.secret); // refuses a short secret now, not at send time
    }

    /** Allow loopback, link-local and private targets (a receiver on the host's network). */
    public Builder allowPrivate(boolean allow) {
      this.allowPrivate = allow;
      return this;
    }

    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive(timeout);
      return this;
    }

    /** Bounds sending the request and reading the answer's status line. */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = positive(timeout);
      return this;
    }

    /** The clock of the signature's timestamp (the host's). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Name resolution (default the system's); every address it answers is checked. */
    public Builder resolver(Resolver resolver) {
      this.resolver = Objects.requireNonNull(resolver, "resolver");
      return this;
    }

    public WebhookNotifier build() {
      return new WebhookNotifier(this);
    }

    private static Duration positive(Duration d) {
      if (d.isNegative() || d.isZero() || d.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("a timeout must be positive: " + d);
      }
      return d;
    }
  }
}
