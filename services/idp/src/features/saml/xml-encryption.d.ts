// xml-encryption publishes no types: the part of its API the identity provider uses.
declare module 'xml-encryption' {
  export interface EncryptOptions {
    /** The recipient's public key (PEM) the content key is encrypted with. */
    rsa_pub: string | Buffer;
    /** The recipient's certificate (PEM), named in the EncryptedKey's KeyInfo. */
    pem: string | Buffer;
    encryptionAlgorithm: string;
    keyEncryptionAlgorithm: string;
    /** The OAEP digest: sha1 (default), sha256, sha512. */
    keyEncryptionDigest?: string;
    keyEncryptionMgf?: string;
    disallowEncryptionWithInsecureAlgorithm?: boolean;
    warnInsecureAlgorithm?: boolean;
  }

  export interface DecryptOptions {
    /** The recipient's private key (PEM). */
    key: string | Buffer;
    disallowDecryptionWithInsecureAlgorithm?: boolean;
    warnInsecureAlgorithm?: boolean;
  }

  /** An `xenc:EncryptedData` element (Type Element) carrying `content`, its key encrypted for the certificate's holder. */
  export function encrypt(content: string, options: EncryptOptions, callback: (error: Error | null, result?: string) => void): void;
  /** The content of an `xenc:EncryptedData` element (given as XML or as its DOM node). */
  export function decrypt(xml: string | Node, options: DecryptOptions, callback: (error: Error | null, result?: string) => void): void;
}
