package dev.jarvis.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class JarvisSpecTest {

  @Test
  void committedSpecIsTheRecordedProtocolDocument() throws Exception {
    Path committed = Path.of(System.getProperty("jarvis.spec", "../spec/jarvis-openapi.yaml"));
    assertEquals(JarvisSpec.SHA256, sha256(Files.readAllBytes(committed)), committed.toString());
  }

  @Test
  void specShippedInTheJarIsTheCommittedOneByteForByte() throws Exception {
    try (InputStream in = JarvisSpec.open()) {
      assertEquals(JarvisSpec.SHA256, sha256(in.readAllBytes()));
    }
  }

  private static String sha256(byte[] bytes) throws NoSuchAlgorithmException, IOException {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
