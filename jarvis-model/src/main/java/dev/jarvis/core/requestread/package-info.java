/**
 * The {@code request-read} capability, the SDK's reads beyond the spec: a Request as the host holds
 * it now, and a Review of the WorkSession. Shared by the host kit that serves them and the client
 * that reads them (an await of a human's answer needs both: the Request's status, and the approving
 * Review's ApprovalScope).
 */
package dev.jarvis.core.requestread;
