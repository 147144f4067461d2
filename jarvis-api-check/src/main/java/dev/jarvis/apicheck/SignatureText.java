package dev.jarvis.apicheck;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.signature.SignatureReader;
import org.objectweb.asm.signature.SignatureVisitor;

/**
 * Java-source text of a class, method or field signature (or of a plain descriptor when the class
 * file has no generic signature): {@code java.util.Optional<T>}, {@code <T extends A & B>}. Written
 * against ASM's core signature visitor so the snapshot needs no further library.
 */
final class SignatureText extends SignatureVisitor {

  private final List<StringBuilder> typeParameters = new ArrayList<>();
  private final List<List<StringBuilder>> bounds = new ArrayList<>();
  private final List<StringBuilder> parameters = new ArrayList<>();
  private final List<StringBuilder> exceptions = new ArrayList<>();
  private final List<StringBuilder> interfaces = new ArrayList<>();
  private StringBuilder superclass;
  private StringBuilder returnType;

  private SignatureText() {
    super(Opcodes.ASM9);
  }

  /** A class signature, or a method signature or descriptor. */
  static SignatureText of(String signature) {
    SignatureText text = new SignatureText();
    new SignatureReader(signature).accept(text);
    return text;
  }

  static String ofType(String signatureOrDescriptor) {
    StringBuilder out = new StringBuilder();
    new SignatureReader(signatureOrDescriptor).acceptType(new TypeText(out));
    return out.toString();
  }

  /** Java name of an internal class name: {@code a/b/Outer$Inner} reads {@code a.b.Outer.Inner}. */
  static String javaName(String internalName) {
    return internalName.replace('/', '.').replace('$', '.');
  }

  /** {@code <T, U extends java.lang.Number>}, or empty when there are none. */
  String typeParameters() {
    if (typeParameters.isEmpty()) {
      return "";
    }
    List<String> each = new ArrayList<>();
    for (int i = 0; i < typeParameters.size(); i++) {
      List<String> named = new ArrayList<>();
      for (StringBuilder bound : bounds.get(i)) {
        if (!bound.toString().equals("java.lang.Object")) {
          named.add(bound.toString());
        }
      }
      each.add(
          typeParameters.get(i) + (named.isEmpty() ? "" : " extends " + String.join(" & ", named)));
    }
    return "<" + String.join(", ", each) + ">";
  }

  String superclass() {
    return superclass == null ? "" : superclass.toString();
  }

  List<String> interfaces() {
    return strings(interfaces);
  }

  List<String> parameters() {
    return strings(parameters);
  }

  String returnType() {
    return returnType == null ? "" : returnType.toString();
  }

  List<String> exceptions() {
    return strings(exceptions);
  }

  private static List<String> strings(List<StringBuilder> builders) {
    List<String> out = new ArrayList<>();
    builders.forEach(b -> out.add(b.toString()));
    return out;
  }

  @Override
  public void visitFormalTypeParameter(String name) {
    typeParameters.add(new StringBuilder(name));
    bounds.add(new ArrayList<>());
  }

  @Override
  public SignatureVisitor visitClassBound() {
    return bound();
  }

  @Override
  public SignatureVisitor visitInterfaceBound() {
    return bound();
  }

  private SignatureVisitor bound() {
    StringBuilder out = new StringBuilder();
    bounds.get(bounds.size() - 1).add(out);
    return new TypeText(out);
  }

  @Override
  public SignatureVisitor visitSuperclass() {
    superclass = new StringBuilder();
    return new TypeText(superclass);
  }

  @Override
  public SignatureVisitor visitInterface() {
    return added(interfaces);
  }

  @Override
  public SignatureVisitor visitParameterType() {
    return added(parameters);
  }

  @Override
  public SignatureVisitor visitReturnType() {
    returnType = new StringBuilder();
    return new TypeText(returnType);
  }

  @Override
  public SignatureVisitor visitExceptionType() {
    return added(exceptions);
  }

  private static SignatureVisitor added(List<StringBuilder> into) {
    StringBuilder out = new StringBuilder();
    into.add(out);
    return new TypeText(out);
  }

  /** One type, written into a shared buffer as ASM walks it depth first. */
  private static final class TypeText extends SignatureVisitor {
    private final StringBuilder out;
    private int arrayDimensions;
    private boolean argumentsOpen;

    TypeText(StringBuilder out) {
      super(Opcodes.ASM9);
      this.out = out;
    }

    @Override
    public void visitBaseType(char descriptor) {
      out.append(
          switch (descriptor) {
            case 'V' -> "void";
            case 'Z' -> "boolean";
            case 'B' -> "byte";
            case 'C' -> "char";
            case 'S' -> "short";
            case 'I' -> "int";
            case 'J' -> "long";
            case 'F' -> "float";
            case 'D' -> "double";
            default -> throw new IllegalArgumentException("base type " + descriptor);
          });
      closeArrays();
    }

    @Override
    public void visitTypeVariable(String name) {
      out.append(name);
      closeArrays();
    }

    @Override
    public SignatureVisitor visitArrayType() {
      arrayDimensions++;
      return this;
    }

    @Override
    public void visitClassType(String name) {
      out.append(javaName(name));
    }

    @Override
    public void visitInnerClassType(String name) {
      closeArguments();
      out.append('.').append(name);
    }

    @Override
    public void visitTypeArgument() {
      openArgument();
      out.append('?');
    }

    @Override
    public SignatureVisitor visitTypeArgument(char wildcard) {
      openArgument();
      if (wildcard == EXTENDS) {
        out.append("? extends ");
      } else if (wildcard == SUPER) {
        out.append("? super ");
      }
      return new TypeText(out);
    }

    @Override
    public void visitEnd() {
      closeArguments();
      closeArrays();
    }

    private void openArgument() {
      out.append(argumentsOpen ? ", " : "<");
      argumentsOpen = true;
    }

    private void closeArguments() {
      if (argumentsOpen) {
        out.append('>');
        argumentsOpen = false;
      }
    }

    private void closeArrays() {
      out.append("[]".repeat(arrayDimensions));
      arrayDimensions = 0;
    }
  }
}
