package dev.jarvis.cli;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads a command's input: a file, or standard input for {@code -}. */
final class CliInput {

  private CliInput() {}

  static byte[] bytes(String file, InputStream stdin) throws CliException {
    try {
      return file.equals("-") ? stdin.readAllBytes() : Files.readAllBytes(Path.of(file));
    } catch (NoSuchFileException e) {
      throw new CliException("no such file: " + file);
    } catch (IOException e) {
      throw new CliException("cannot read " + file + ": " + e.getMessage());
    }
  }

  /** Strict JSON: duplicate keys and trailing content are refused. */
  static JsonNode json(String file, InputStream stdin) throws CliException {
    byte[] bytes = bytes(file, stdin);
    try {
      JsonNode tree = JarvisJson.mapper().readTree(bytes);
      if (tree == null || tree.isMissingNode()) {
        throw new CliException(file + ": empty input");
      }
      return tree;
    } catch (JacksonException e) {
      throw new CliException(file + ": not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new CliException("cannot read " + file + ": " + e.getMessage());
    }
  }

  static String arg(String[] args, int index, String usage) throws CliException {
    if (args.length <= index) {
      throw new CliException("usage: " + usage);
    }
    return args[index];
  }
}
