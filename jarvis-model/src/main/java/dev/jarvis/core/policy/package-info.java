/**
 * The Policy, evaluated: {@link dev.jarvis.core.policy.PolicyEvaluator} tells the most permissive
 * result a Policy allows for a planned action, and which rule of the Policy decided it. Host,
 * client and stub host use this one engine, so an agent knows before asking what a host will
 * accept.
 *
 * <p>Event types a host writes itself are protected against look-alikes by {@link
 * dev.jarvis.core.policy.ReservedNames}.
 */
package dev.jarvis.core.policy;
