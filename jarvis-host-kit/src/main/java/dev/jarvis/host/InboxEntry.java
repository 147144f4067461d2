package dev.jarvis.host;

import java.util.Objects;

/**
 * One Request of a human's inbox ({@link RecordStore#inbox}) with its place in the store's order of
 * Requests: a number that grows with each Request first written and never changes after (the
 * Request's later writes, its status among them, keep it). It is the inbox read's cursor; it says
 * nothing else and is not dense.
 *
 * @param position the Request's place, from 1
 * @param request the Request as stored
 */
public record InboxEntry(long position, StoredRecord request) {

  public InboxEntry {
    if (position < 1) {
      throw new IllegalArgumentException("position >= 1");
    }
    Objects.requireNonNull(request, "request");
  }
}
