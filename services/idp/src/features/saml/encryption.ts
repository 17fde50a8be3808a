import { X509Certificate } from 'node:crypto';
import { encrypt } from 'xml-encryption';
import { certificatePem } from './xml.js';

/**
 * How assertions are encrypted: the content with AES-256-GCM (authenticated, unlike CBC), its key
 * with RSA-OAEP (MGF1 with SHA-1, as XML Encryption 1.0 defines it and every service provider reads).
 */
export const ENCRYPTION_ALGORITHMS = {
  content: 'http://www.w3.org/2009/xmlenc11#aes256-gcm',
  key: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
} as const;

/**
 * An already signed Assertion as an EncryptedAssertion only the holder of `certificate` (the
 * service provider's, PEM or base64 DER) can read. Signed first, then encrypted: once decrypted,
 * the service provider checks the signature of the very assertion the identity provider made.
 */
export async function encryptedAssertion(signedAssertion: string, certificate: string): Promise<string> {
  const pem = certificatePem(certificate);
  const publicKey = new X509Certificate(pem).publicKey;
  if (publicKey.asymmetricKeyType !== 'rsa') throw new Error('assertions are encrypted for RSA keys only');
  const encryptedData = await new Promise<string>((resolve, reject) =>
    encrypt(
      signedAssertion,
      {
        rsa_pub: publicKey.export({ type: 'spki', format: 'pem' }),
        pem,
        encryptionAlgorithm: ENCRYPTION_ALGORITHMS.content,
        keyEncryptionAlgorithm: ENCRYPTION_ALGORITHMS.key,
        disallowEncryptionWithInsecureAlgorithm: true,
        warnInsecureAlgorithm: false,
      },
      (error, result) => (error || !result ? reject(error ?? new Error('the assertion could not be encrypted')) : resolve(result)),
    ),
  );
  return `<saml:EncryptedAssertion>${encryptedData}</saml:EncryptedAssertion>`;
}
