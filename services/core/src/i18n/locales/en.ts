// English is the reference catalogue of the server's messages; it lives with the error codes it names.
export { en, type Phrases } from '@gatehouse/contracts';
