package dev.jarvis.apicheck;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff (three lines of context) between two texts, the way {@code git diff} prints it, so
 * a reviewer reads an API change like any other change.
 */
final class UnifiedDiff {

  private static final int CONTEXT = 3;

  /** Past this many differing lines a line-by-line alignment would cost too much memory. */
  private static final int ALIGNED_LIMIT = 4_000;

  private UnifiedDiff() {}

  /** The diff from {@code expected} to {@code actual}; empty when they are equal. */
  static String between(
      String oldName, List<String> expected, String newName, List<String> actual) {
    List<Edit> edits = edits(expected, actual);
    if (edits.stream().allMatch(edit -> edit.kind == ' ')) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    out.append("--- ").append(oldName).append('\n');
    out.append("+++ ").append(newName).append('\n');
    int i = 0;
    while (i < edits.size()) {
      if (edits.get(i).kind == ' ') {
        i++;
        continue;
      }
      int start = Math.max(0, i - CONTEXT);
      int end = i;
      // Extend the hunk while the next change is within two contexts of the last one.
      int lastChange = i;
      while (end < edits.size() && end - lastChange <= 2 * CONTEXT) {
        if (edits.get(end).kind != ' ') {
          lastChange = end;
        }
        end++;
      }
      end = Math.min(edits.size(), lastChange + CONTEXT + 1);
      hunk(out, edits, start, end);
      i = end;
    }
    return out.toString();
  }

  private static void hunk(StringBuilder out, List<Edit> edits, int start, int end) {
    int oldStart = edits.get(start).oldLine;
    int newStart = edits.get(start).newLine;
    int oldCount = 0;
    int newCount = 0;
    for (int k = start; k < end; k++) {
      char kind = edits.get(k).kind;
      oldCount += kind == '+' ? 0 : 1;
      newCount += kind == '-' ? 0 : 1;
    }
    out.append("@@ -")
        .append(oldStart + (oldCount == 0 ? 0 : 1))
        .append(',')
        .append(oldCount)
        .append(" +")
        .append(newStart + (newCount == 0 ? 0 : 1))
        .append(',')
        .append(newCount)
        .append(" @@\n");
    for (int k = start; k < end; k++) {
      out.append(edits.get(k).kind).append(edits.get(k).text).append('\n');
    }
  }

  /** Common head and tail as context, the middle aligned by longest common subsequence. */
  private static List<Edit> edits(List<String> a, List<String> b) {
    int head = 0;
    while (head < a.size() && head < b.size() && a.get(head).equals(b.get(head))) {
      head++;
    }
    int tail = 0;
    while (tail < a.size() - head
        && tail < b.size() - head
        && a.get(a.size() - 1 - tail).equals(b.get(b.size() - 1 - tail))) {
      tail++;
    }
    List<Edit> edits = new ArrayList<>();
    for (int k = 0; k < head; k++) {
      edits.add(new Edit(' ', a.get(k), k, k));
    }
    List<String> oldMiddle = a.subList(head, a.size() - tail);
    List<String> newMiddle = b.subList(head, b.size() - tail);
    middle(edits, oldMiddle, newMiddle, head, head);
    for (int k = tail; k > 0; k--) {
      edits.add(new Edit(' ', a.get(a.size() - k), a.size() - k, b.size() - k));
    }
    return edits;
  }

  private static void middle(
      List<Edit> edits, List<String> a, List<String> b, int oldAt, int newAt) {
    int n = a.size();
    int m = b.size();
    if (n > ALIGNED_LIMIT || m > ALIGNED_LIMIT) {
      for (int k = 0; k < n; k++) {
        edits.add(new Edit('-', a.get(k), oldAt + k, newAt));
      }
      for (int k = 0; k < m; k++) {
        edits.add(new Edit('+', b.get(k), oldAt + n, newAt + k));
      }
      return;
    }
    int[][] common = new int[n + 1][m + 1];
    for (int x = n - 1; x >= 0; x--) {
      for (int y = m - 1; y >= 0; y--) {
        common[x][y] =
            a.get(x).equals(b.get(y))
                ? common[x + 1][y + 1] + 1
                : Math.max(common[x + 1][y], common[x][y + 1]);
      }
    }
    int x = 0;
    int y = 0;
    while (x < n || y < m) {
      if (x < n && y < m && a.get(x).equals(b.get(y))) {
        edits.add(new Edit(' ', a.get(x), oldAt + x, newAt + y));
        x++;
        y++;
      } else if (x < n && (y == m || common[x + 1][y] >= common[x][y + 1])) {
        // Removals before additions, as git prints them.
        edits.add(new Edit('-', a.get(x), oldAt + x, newAt + y));
        x++;
      } else {
        edits.add(new Edit('+', b.get(y), oldAt + x, newAt + y));
        y++;
      }
    }
  }

  /** One line of the diff; {@code oldLine}/{@code newLine} are zero-based positions before it. */
  private record Edit(char kind, String text, int oldLine, int newLine) {}
}
