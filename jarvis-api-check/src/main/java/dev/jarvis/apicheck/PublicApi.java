package dev.jarvis.apicheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.ModuleVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The public API of one module's classes as sorted text: one line per accessible type, and under it
 * one indented line per public or protected constructor, method and field, with generic signatures,
 * modifiers, {@code throws} and {@code @Deprecated}.
 *
 * <p>Read from class files, not by reflection, so a module's optional dependencies need not be on
 * the classpath and nothing is initialised. What javac adds on its own and may change between JDKs
 * (synthetic and bridge methods, lambda bodies, private members) is left out, so the text depends
 * on the source only.
 *
 * <p>API means: a package the module exports when it has a {@code module-info.class}; otherwise
 * every package but those with an {@code internal} segment. Generated packages count: users compile
 * against them.
 */
final class PublicApi {

  private static final String DEPRECATED = "Ljava/lang/Deprecated;";

  private PublicApi() {}

  /** The API text of a class directory ({@code target/classes}) or a jar. */
  static List<String> of(Path classes) {
    Map<String, byte[]> classFiles = read(classes);
    Optional<Set<String>> exports =
        Optional.ofNullable(classFiles.get("module-info.class")).map(PublicApi::exports);
    Map<String, TypeDeclaration> types = new HashMap<>();
    for (Map.Entry<String, byte[]> file : classFiles.entrySet()) {
      if (file.getKey().equals("module-info.class")
          || file.getKey().endsWith("package-info.class")) {
        continue;
      }
      TypeDeclaration type = new TypeDeclaration();
      new ClassReader(file.getValue())
          .accept(type, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
      types.put(type.name, type);
    }
    TreeMap<String, TypeDeclaration> api = new TreeMap<>();
    for (TypeDeclaration type : types.values()) {
      if (exported(type.name, exports) && accessible(type, types)) {
        api.put(SignatureText.javaName(type.name), type);
      }
    }
    List<String> lines = new ArrayList<>();
    for (TypeDeclaration type : api.values()) {
      lines.add(type.declaration());
      type.members.stream().sorted().map(member -> "  " + member).forEach(lines::add);
    }
    return lines;
  }

  private static boolean exported(String internalName, Optional<Set<String>> exports) {
    int slash = internalName.lastIndexOf('/');
    String pkg = slash < 0 ? "" : internalName.substring(0, slash);
    if (exports.isPresent()) {
      return exports.get().contains(pkg);
    }
    return !Set.of(pkg.split("/")).contains("internal");
  }

  /** Public, or protected in an extensible outer type, all the way out. */
  private static boolean accessible(TypeDeclaration type, Map<String, TypeDeclaration> types) {
    if (type.outer == null) {
      return !type.nested && (type.access & Opcodes.ACC_PUBLIC) != 0;
    }
    TypeDeclaration outer = types.get(type.outer);
    if (outer == null || !accessible(outer, types)) {
      return false;
    }
    return (type.access & Opcodes.ACC_PUBLIC) != 0
        || ((type.access & Opcodes.ACC_PROTECTED) != 0 && outer.extensible());
  }

  private static Set<String> exports(byte[] moduleInfo) {
    Set<String> packages = new HashSet<>();
    new ClassReader(moduleInfo)
        .accept(
            new ClassVisitor(Opcodes.ASM9) {
              @Override
              public ModuleVisitor visitModule(String name, int access, String version) {
                return new ModuleVisitor(Opcodes.ASM9) {
                  @Override
                  public void visitExport(String packaze, int access, String... modules) {
                    // A qualified export ("to" named modules) is for friends, not for users.
                    if (modules == null || modules.length == 0) {
                      packages.add(packaze);
                    }
                  }
                };
              }
            },
            0);
    return packages;
  }

  private static Map<String, byte[]> read(Path classes) {
    Map<String, byte[]> files = new TreeMap<>();
    try {
      if (Files.isDirectory(classes)) {
        try (Stream<Path> walk = Files.walk(classes)) {
          for (Path file : (Iterable<Path>) walk.sorted(Comparator.naturalOrder())::iterator) {
            if (file.toString().endsWith(".class")) {
              files.put(
                  classes.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
            }
          }
        }
      } else {
        try (JarFile jar = new JarFile(classes.toFile())) {
          for (JarEntry entry : (Iterable<JarEntry>) jar.stream()::iterator) {
            // Multi-release variants would make the text depend on the JDK that reads it.
            if (entry.getName().endsWith(".class") && !entry.getName().startsWith("META-INF/")) {
              try (InputStream in = jar.getInputStream(entry)) {
                files.put(entry.getName(), in.readAllBytes());
              }
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read classes at " + classes, e);
    }
    return files;
  }

  private static String modifiers(int access, boolean deprecated, boolean forRemoval) {
    StringBuilder out = new StringBuilder();
    if (deprecated) {
      out.append(forRemoval ? "@Deprecated(forRemoval=true) " : "@Deprecated ");
    }
    if ((access & Opcodes.ACC_PUBLIC) != 0) {
      out.append("public ");
    }
    if ((access & Opcodes.ACC_PROTECTED) != 0) {
      out.append("protected ");
    }
    return out.toString();
  }

  private static boolean visible(int access, TypeDeclaration owner) {
    if ((access & (Opcodes.ACC_SYNTHETIC | Opcodes.ACC_BRIDGE)) != 0) {
      return false;
    }
    return (access & Opcodes.ACC_PUBLIC) != 0
        || ((access & Opcodes.ACC_PROTECTED) != 0 && owner.extensible());
  }

  /** Notes {@code @Deprecated} and its {@code forRemoval} on whatever it annotates. */
  private static final class DeprecationMark {
    boolean deprecated;
    boolean forRemoval;

    AnnotationVisitor visit(String descriptor) {
      if (!DEPRECATED.equals(descriptor)) {
        return null;
      }
      deprecated = true;
      return new AnnotationVisitor(Opcodes.ASM9) {
        @Override
        public void visit(String name, Object value) {
          if ("forRemoval".equals(name) && Boolean.TRUE.equals(value)) {
            forRemoval = true;
          }
        }
      };
    }
  }

  private static final class TypeDeclaration extends ClassVisitor {
    String name;
    String outer;
    boolean nested;
    int access;
    private String signature;
    private String superName;
    private String[] interfaceNames;
    private final DeprecationMark mark = new DeprecationMark();
    private final List<String> permitted = new ArrayList<>();
    final List<String> members = new ArrayList<>();

    TypeDeclaration() {
      super(Opcodes.ASM9);
    }

    boolean extensible() {
      return (access & Opcodes.ACC_FINAL) == 0;
    }

    @Override
    public void visit(
        int version,
        int access,
        String name,
        String signature,
        String superName,
        String[] interfaces) {
      this.name = name;
      this.access = access;
      this.signature = signature;
      this.superName = superName;
      this.interfaceNames = interfaces;
    }

    @Override
    public void visitInnerClass(String innerName, String outerName, String simpleName, int access) {
      if (innerName.equals(name)) {
        // The InnerClasses entry holds the modifiers as written (static, protected, private).
        nested = true;
        outer = simpleName == null ? null : outerName;
        this.access = access | (this.access & Opcodes.ACC_DEPRECATED);
      }
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      return mark.visit(descriptor);
    }

    @Override
    public void visitPermittedSubclass(String permittedSubclass) {
      // Sealing (and what it permits) decides whether users may implement the type.
      permitted.add(SignatureText.javaName(permittedSubclass));
    }

    @Override
    public FieldVisitor visitField(
        int access, String name, String descriptor, String signature, Object value) {
      if (!visible(access, this)) {
        return null;
      }
      DeprecationMark field = new DeprecationMark();
      return new FieldVisitor(Opcodes.ASM9) {
        @Override
        public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
          return field.visit(annotation);
        }

        @Override
        public void visitEnd() {
          String type = SignatureText.ofType(signature != null ? signature : descriptor);
          members.add(
              modifiers(access, field.deprecated, field.forRemoval)
                  + flag(access, Opcodes.ACC_STATIC, "static ")
                  + flag(access, Opcodes.ACC_FINAL, "final ")
                  + type
                  + " "
                  + name);
        }
      };
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      if (!visible(access, this) || name.equals("<clinit>")) {
        return null;
      }
      DeprecationMark method = new DeprecationMark();
      return new MethodVisitor(Opcodes.ASM9) {
        @Override
        public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
          return method.visit(annotation);
        }

        @Override
        public void visitEnd() {
          members.add(method(access, name, descriptor, signature, exceptions, method));
        }
      };
    }

    private String method(
        int access,
        String name,
        String descriptor,
        String signature,
        String[] exceptionNames,
        DeprecationMark mark) {
      SignatureText text = SignatureText.of(signature != null ? signature : descriptor);
      List<String> parameters = new ArrayList<>(text.parameters());
      if ((access & Opcodes.ACC_VARARGS) != 0 && !parameters.isEmpty()) {
        int last = parameters.size() - 1;
        String array = parameters.get(last);
        parameters.set(last, array.substring(0, array.length() - 2) + "...");
      }
      List<String> exceptions = text.exceptions();
      if (exceptions.isEmpty() && exceptionNames != null) {
        for (String exception : exceptionNames) {
          exceptions.add(SignatureText.javaName(exception));
        }
      }
      boolean isInterface = (this.access & Opcodes.ACC_INTERFACE) != 0;
      boolean isAbstract = (access & Opcodes.ACC_ABSTRACT) != 0;
      boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
      StringBuilder out = new StringBuilder(modifiers(access, mark.deprecated, mark.forRemoval));
      if (isInterface) {
        out.append(!isAbstract && !isStatic ? "default " : "");
      } else {
        out.append(flag(access, Opcodes.ACC_ABSTRACT, "abstract "));
      }
      out.append(flag(access, Opcodes.ACC_STATIC, "static "));
      out.append(flag(access, Opcodes.ACC_FINAL, "final "));
      String typeParameters = text.typeParameters();
      if (!typeParameters.isEmpty()) {
        out.append(typeParameters).append(' ');
      }
      if (name.equals("<init>")) {
        String simple = SignatureText.javaName(this.name);
        out.append(simple.substring(simple.lastIndexOf('.') + 1));
      } else {
        out.append(text.returnType()).append(' ').append(name);
      }
      out.append('(').append(String.join(", ", parameters)).append(')');
      if (!exceptions.isEmpty()) {
        out.append(" throws ").append(String.join(", ", exceptions));
      }
      return out.toString();
    }

    String declaration() {
      StringBuilder out = new StringBuilder(modifiers(access, mark.deprecated, mark.forRemoval));
      boolean isInterface = (access & Opcodes.ACC_INTERFACE) != 0;
      boolean isAnnotation = (access & Opcodes.ACC_ANNOTATION) != 0;
      boolean isEnum = (access & Opcodes.ACC_ENUM) != 0;
      if (!isInterface) {
        out.append(flag(access, Opcodes.ACC_ABSTRACT, "abstract "));
      }
      if (nested) {
        out.append(flag(access, Opcodes.ACC_STATIC, "static "));
      }
      if (!isInterface && !isEnum) {
        out.append(flag(access, Opcodes.ACC_FINAL, "final "));
      }
      if (!permitted.isEmpty()) {
        out.append("sealed ");
      }
      out.append(
          isAnnotation ? "@interface " : isInterface ? "interface " : isEnum ? "enum " : "class ");
      out.append(SignatureText.javaName(name));
      String superclass;
      List<String> interfaces;
      if (signature != null) {
        SignatureText text = SignatureText.of(signature);
        out.append(text.typeParameters());
        superclass = text.superclass();
        interfaces = text.interfaces();
      } else {
        superclass = superName == null ? "" : SignatureText.javaName(superName);
        interfaces = new ArrayList<>();
        for (String each : interfaceNames) {
          interfaces.add(SignatureText.javaName(each));
        }
      }
      if (isAnnotation) {
        interfaces.remove("java.lang.annotation.Annotation");
      }
      if (!superclass.isEmpty() && !superclass.equals("java.lang.Object") && !isEnum) {
        out.append(" extends ").append(superclass);
      }
      if (!interfaces.isEmpty()) {
        out.append(isInterface ? " extends " : " implements ")
            .append(String.join(", ", interfaces));
      }
      if (!permitted.isEmpty()) {
        out.append(" permits ").append(String.join(", ", permitted.stream().sorted().toList()));
      }
      return out.toString();
    }
  }

  private static String flag(int access, int flag, String text) {
    return (access & flag) != 0 ? text : "";
  }
}
