/**
 * The Spring Boot starter: auto-configures a Jarvis host (servlet binding, JDBC store) from {@code
 * jarvis.host.*} properties.
 */
module dev.jarvis.spring.boot {
  requires transitive dev.jarvis.host.servlet;
  requires transitive dev.jarvis.store.jdbc;
  requires spring.beans;
  requires spring.boot;
  requires spring.boot.autoconfigure;
  requires spring.context;
  requires spring.core;
  requires org.slf4j;
  // Optional integrations: each configuration is conditional on its classes being present.
  requires static spring.boot.sql;
  requires static spring.boot.health;
  requires static spring.web;
  requires static micrometer.core;

  exports dev.jarvis.spring.boot;
  // Spring creates, binds and proxies the auto-configuration and properties classes by reflection.
  opens dev.jarvis.spring.boot;
}
