/**
 * The Jarvis protocol model and core: the records generated from the spec ({@code
 * dev.jarvis.model}) and the protocol rules both sides share ({@code dev.jarvis.core.*}).
 *
 * <p>{@code *.internal} packages are not exported: they are the core's own machinery (the compiled
 * schema checks, ECMAScript number formatting) and may change in any release.
 */
// "module": the qualified opens name org.hibernate.validator, absent unless the user validates.
@SuppressWarnings("module")
module dev.jarvis.model {
  // The API hands out JsonNode and ObjectMapper (JarvisJson), and the generated records carry
  // Jackson, Jakarta Validation and Jakarta Annotation annotations a user's compiler reads.
  requires transitive com.fasterxml.jackson.databind;
  requires transitive jakarta.validation;
  requires transitive jakarta.annotation;
  requires com.fasterxml.jackson.datatype.jsr310;

  exports dev.jarvis.core;
  exports dev.jarvis.core.canonical;
  exports dev.jarvis.core.chain;
  exports dev.jarvis.core.error;
  exports dev.jarvis.core.eventlog;
  exports dev.jarvis.core.exchange;
  exports dev.jarvis.core.hash;
  exports dev.jarvis.core.headers;
  exports dev.jarvis.core.notification;
  exports dev.jarvis.core.policy;
  exports dev.jarvis.core.records;
  exports dev.jarvis.core.requestinbox;
  exports dev.jarvis.core.requestread;
  exports dev.jarvis.core.signature;
  exports dev.jarvis.core.validation;
  // Generated from the spec (target/generated-sources): the records users build and read.
  exports dev.jarvis.model;

  // Jackson binds the generated records (private fields, annotated accessors); a user's Bean
  // Validation provider reads their constraints.
  opens dev.jarvis.model to
      com.fasterxml.jackson.databind,
      org.hibernate.validator;
  // Resources only: the spec (JarvisSpec.RESOURCE, JSON_RESOURCE), readable by anyone through
  // ClassLoader.getResource as on the class path. No classes live here.
  opens dev.jarvis.spec;
}
