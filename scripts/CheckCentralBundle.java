import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks a Central Portal bundle (the zip central-publishing-maven-plugin builds) against what Maven
 * Central requires of a release, and against this repository's own list of published modules.
 *
 * <pre>java scripts/CheckCentralBundle.java BUNDLE.zip [REPO_ROOT]</pre>
 *
 * <p>Central's requirements (central.sonatype.org/publish/requirements): every component's POM
 * carries coordinates matching its path, a release version, name, description, url, licenses,
 * developers and scm (inherited from a parent that is itself in the bundle counts); every jar
 * component has its sources and Javadoc jars; every file has an ASCII-armoured signature (.asc) and
 * .md5 and .sha1 checksums that match it. This repository adds: the bundle holds exactly the
 * reactor's modules that do not set maven.deploy.skip, plus the parent POM; a published POM depends
 * at compile or runtime scope on no unpublished module of ours; the BOM manages only published
 * modules; the runnable CLI's POM is dependency-reduced (its jar holds its dependencies).
 *
 * <p>Exit status 0 when the bundle passes, 1 with one line per finding otherwise.
 */
public final class CheckCentralBundle {

  private static final String GROUP = "dev.jarvis";
  private static final Set<String> RUNNABLE_JARS = Set.of("jarvis-cli");

  private final List<String> findings = new ArrayList<>();
  private final Map<String, byte[]> files = new TreeMap<>();
  /** artifactId to its parsed POM. */
  private final Map<String, Element> poms = new TreeMap<>();

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: java scripts/CheckCentralBundle.java BUNDLE.zip [REPO_ROOT]");
      System.exit(2);
    }
    Path root = Path.of(args.length > 1 ? args[1] : ".");
    CheckCentralBundle check = new CheckCentralBundle();
    check.run(Path.of(args[0]), root);
    if (check.findings.isEmpty()) {
      System.out.println("central bundle OK: " + check.poms.size() + " components " + check.poms.keySet());
      return;
    }
    check.findings.forEach(f -> System.out.println("FAIL " + f));
    System.out.println(check.findings.size() + " finding(s)");
    System.exit(1);
  }

  private void run(Path bundle, Path root) throws Exception {
    try (ZipFile zip = new ZipFile(bundle.toFile())) {
      for (ZipEntry e : java.util.Collections.list(zip.entries())) {
        if (!e.isDirectory()) {
          try (InputStream in = zip.getInputStream(e)) {
            files.put(e.getName(), in.readAllBytes());
          }
        }
      }
    }
    if (files.isEmpty()) {
      findings.add(bundle + ": empty bundle");
      return;
    }
    checkSignaturesAndChecksums();
    Map<String, String> versions = new TreeMap<>();
    for (String name : files.keySet()) {
      if (!name.endsWith(".pom")) {
        continue;
      }
      String[] path = name.split("/");
      if (path.length < 4) {
        findings.add(name + ": not under groupId/artifactId/version/");
        continue;
      }
      String version = path[path.length - 2];
      String artifactId = path[path.length - 3];
      String group = String.join(".", List.of(path).subList(0, path.length - 3));
      if (!name.endsWith("/" + artifactId + "-" + version + ".pom")) {
        findings.add(name + ": POM not named artifactId-version.pom");
      }
      Element pom = parse(name);
      poms.put(artifactId, pom);
      versions.put(artifactId, version);
      checkCoordinates(name, pom, group, artifactId, version);
    }
    for (Map.Entry<String, Element> e : poms.entrySet()) {
      checkMetadata(e.getKey(), e.getValue());
      checkArtifacts(e.getKey(), e.getValue(), versions.get(e.getKey()));
      checkDependencies(e.getKey(), e.getValue());
    }
    checkPublishedSet(root);
  }

  // --- Central's rules ---------------------------------------------------------------------------

  private void checkSignaturesAndChecksums() throws NoSuchAlgorithmException {
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      String name = f.getKey();
      if (isChecksum(name) || name.endsWith(".asc")) {
        continue;
      }
      byte[] asc = files.get(name + ".asc");
      if (asc == null) {
        findings.add(name + ": no signature (.asc)");
      } else if (!new String(asc, StandardCharsets.US_ASCII)
          .contains("-----BEGIN PGP SIGNATURE-----")) {
        findings.add(name + ".asc: not an ASCII-armoured PGP signature");
      }
      checksum(name, f.getValue(), "md5", "MD5", true);
      checksum(name, f.getValue(), "sha1", "SHA-1", true);
      checksum(name, f.getValue(), "sha256", "SHA-256", false);
      checksum(name, f.getValue(), "sha512", "SHA-512", false);
    }
  }

  private void checksum(String name, byte[] content, String ext, String algorithm, boolean required)
      throws NoSuchAlgorithmException {
    byte[] sum = files.get(name + "." + ext);
    if (sum == null) {
      if (required) {
        findings.add(name + ": no ." + ext + " checksum");
      }
      return;
    }
    String expected = HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(content));
    String actual = new String(sum, StandardCharsets.US_ASCII).trim().split("\\s+")[0];
    if (!expected.equalsIgnoreCase(actual)) {
      findings.add(name + "." + ext + ": does not match the file");
    }
  }

  private void checkCoordinates(
      String name, Element pom, String group, String artifactId, String version) {
    Optional<Element> parent = child(pom, "parent");
    String pomGroup =
        text(pom, "groupId").or(() -> parent.flatMap(p -> text(p, "groupId"))).orElse("");
    String pomVersion =
        text(pom, "version").or(() -> parent.flatMap(p -> text(p, "version"))).orElse("");
    if (!pomGroup.equals(group)) {
      findings.add(name + ": groupId " + pomGroup + " does not match its path (" + group + ")");
    }
    if (!text(pom, "artifactId").orElse("").equals(artifactId)) {
      findings.add(name + ": artifactId does not match its path");
    }
    if (!pomVersion.equals(version)) {
      findings.add(name + ": version " + pomVersion + " does not match its path (" + version + ")");
    }
    if (version.endsWith("-SNAPSHOT")) {
      findings.add(name + ": a SNAPSHOT version; Central takes releases only");
    }
  }

  /** name in the POM itself (Maven does not inherit it); the rest possibly from the parent. */
  private void checkMetadata(String artifactId, Element pom) {
    String where = artifactId + ".pom";
    if (text(pom, "name").filter(s -> !s.isBlank()).isEmpty()) {
      findings.add(where + ": no <name>");
    }
    for (String field : List.of("description", "url")) {
      if (inherited(pom, p -> text(p, field).filter(s -> !s.isBlank()).isPresent()).isEmpty()) {
        findings.add(where + ": no <" + field + "> (own or inherited from a bundled parent)");
      }
    }
    Optional<Element> licenses = inherited(pom, p -> child(p, "licenses").isPresent());
    if (licenses.isEmpty()
        || children(child(licenses.get(), "licenses").orElseThrow(), "license").stream()
            .noneMatch(l -> text(l, "name").isPresent() && text(l, "url").isPresent())) {
      findings.add(where + ": no <licenses> with a license name and url");
    }
    Optional<Element> developers = inherited(pom, p -> child(p, "developers").isPresent());
    if (developers.isEmpty()
        || children(child(developers.get(), "developers").orElseThrow(), "developer").stream()
            .noneMatch(d -> text(d, "name").isPresent() || text(d, "id").isPresent())) {
      findings.add(where + ": no <developers> with a developer");
    }
    Optional<Element> scm = inherited(pom, p -> child(p, "scm").isPresent());
    if (scm.isEmpty()
        || text(child(scm.get(), "scm").orElseThrow(), "url").isEmpty()
        || text(child(scm.get(), "scm").orElseThrow(), "connection").isEmpty()) {
      findings.add(where + ": no <scm> with url and connection");
    }
  }

  /** A jar component comes with its sources and Javadoc jars; a POM component is the POM alone. */
  private void checkArtifacts(String artifactId, Element pom, String version) {
    String packaging = text(pom, "packaging").orElse("jar");
    if (packaging.equals("pom")) {
      return;
    }
    String dir = GROUP.replace('.', '/') + "/" + artifactId + "/" + version + "/";
    String base = dir + artifactId + "-" + version;
    for (String suffix : List.of(".jar", "-sources.jar", "-javadoc.jar")) {
      byte[] jar = files.get(base + suffix);
      if (jar == null) {
        findings.add(artifactId + ": no " + artifactId + "-" + version + suffix);
      } else if (jar.length < 22 || jar[0] != 'P' || jar[1] != 'K') {
        findings.add(base + suffix + ": not a zip archive");
      }
    }
    byte[] javadoc = files.get(base + "-javadoc.jar");
    if (javadoc != null && !zipHas(javadoc, "index.html")) {
      findings.add(base + "-javadoc.jar: holds no index.html");
    }
    byte[] main = files.get(base + ".jar");
    if (main != null && !zipHas(main, "META-INF/LICENSE")) {
      findings.add(base + ".jar: holds no META-INF/LICENSE");
    }
  }

  // --- This repository's rules --------------------------------------------------------------------

  /** Nothing published may need an unpublished module of ours at compile or run time. */
  private void checkDependencies(String artifactId, Element pom) {
    for (Element dep : dependencies(pom, "dependencies")) {
      String scope = text(dep, "scope").orElse("compile");
      if (scope.equals("test") || scope.equals("provided")) {
        continue;
      }
      if (RUNNABLE_JARS.contains(artifactId)) {
        findings.add(
            artifactId
                + ".pom: lists "
                + text(dep, "artifactId").orElse("?")
                + " though its runnable jar holds its dependencies (dependency-reduced POM expected)");
        continue;
      }
      String group = resolve(pom, text(dep, "groupId").orElse(""));
      String id = text(dep, "artifactId").orElse("");
      if (group.equals(GROUP) && !poms.containsKey(id)) {
        findings.add(artifactId + ".pom: depends on " + id + ", which is not in the bundle");
      }
    }
    if (artifactId.equals("jarvis-bom")) {
      for (Element dep : dependencies(pom, "dependencyManagement")) {
        String id = text(dep, "artifactId").orElse("");
        if (!poms.containsKey(id)) {
          findings.add("jarvis-bom.pom: manages " + id + ", which is not in the bundle");
        }
      }
    }
  }

  /** The bundle holds the parent POM and every module that does not set maven.deploy.skip. */
  private void checkPublishedSet(Path root) throws Exception {
    Path rootPom = root.resolve("pom.xml");
    if (!Files.exists(rootPom)) {
      findings.add(rootPom + ": not found, cannot compare with the reactor's modules");
      return;
    }
    Element parent = parse(Files.readAllBytes(rootPom));
    Set<String> expected = new TreeSet<>();
    expected.add(text(parent, "artifactId").orElseThrow());
    Set<String> skipped = new TreeSet<>();
    for (Element module : children(child(parent, "modules").orElseThrow(), "module")) {
      Element pom = parse(Files.readAllBytes(root.resolve(module.getTextContent().trim()).resolve("pom.xml")));
      String id = text(pom, "artifactId").orElseThrow();
      boolean skip =
          child(pom, "properties")
              .flatMap(p -> text(p, "maven.deploy.skip"))
              .map(Boolean::parseBoolean)
              .orElse(false);
      (skip ? skipped : expected).add(id);
    }
    for (String id : expected) {
      if (!poms.containsKey(id)) {
        findings.add(id + ": published module missing from the bundle");
      }
    }
    for (String id : poms.keySet()) {
      if (skipped.contains(id)) {
        findings.add(id + ": sets maven.deploy.skip but is in the bundle (excludeArtifacts in pom.xml)");
      } else if (!expected.contains(id)) {
        findings.add(id + ": in the bundle but not a module of this reactor");
      }
    }
  }

  // --- POM reading --------------------------------------------------------------------------------

  /** The POM itself or the nearest bundled ancestor for which the test holds. */
  private Optional<Element> inherited(Element pom, java.util.function.Predicate<Element> test) {
    Element current = pom;
    for (int depth = 0; current != null && depth < 10; depth++) {
      if (test.test(current)) {
        return Optional.of(current);
      }
      current =
          child(current, "parent").flatMap(p -> text(p, "artifactId")).map(poms::get).orElse(null);
    }
    return Optional.empty();
  }

  private List<Element> dependencies(Element pom, String section) {
    Optional<Element> holder =
        section.equals("dependencies")
            ? Optional.of(pom)
            : child(pom, section);
    return holder
        .flatMap(h -> child(h, "dependencies"))
        .map(d -> children(d, "dependency"))
        .orElse(List.of());
  }

  private static String resolve(Element pom, String value) {
    if (value.equals("${project.groupId}")) {
      return text(pom, "groupId")
          .or(() -> child(pom, "parent").flatMap(p -> text(p, "groupId")))
          .orElse(value);
    }
    return value;
  }

  private Element parse(String name) throws Exception {
    return parse(files.get(name));
  }

  private static Element parse(byte[] xml) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(false);
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    Document doc = factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
    return doc.getDocumentElement();
  }

  private static Optional<Element> child(Element parent, String name) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> out = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        out.add(e);
      }
    }
    return out;
  }

  private static Optional<String> text(Element parent, String name) {
    return child(parent, name).map(e -> e.getTextContent().trim());
  }

  private static boolean isChecksum(String name) {
    return name.endsWith(".md5")
        || name.endsWith(".sha1")
        || name.endsWith(".sha256")
        || name.endsWith(".sha512");
  }

  private static boolean zipHas(byte[] zip, String entry) {
    try (var in = new java.util.zip.ZipInputStream(new ByteArrayInputStream(zip))) {
      for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        if (e.getName().equals(entry)) {
          return true;
        }
      }
    } catch (IOException e) {
      return false;
    }
    return false;
  }
}
