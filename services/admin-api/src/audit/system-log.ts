// The system log's writer is the product's (the identity provider writes rows too); the admin API's features import it from here.
export { writeSystemLog, type SystemLogEntry } from '@gatehouse/core';
