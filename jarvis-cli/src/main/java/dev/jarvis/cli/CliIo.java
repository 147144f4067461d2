package dev.jarvis.cli;

import java.io.InputStream;
import java.io.PrintStream;

/** Where a command reads and writes: the process's streams, or a test's. */
record CliIo(InputStream in, PrintStream out, PrintStream err) {}
