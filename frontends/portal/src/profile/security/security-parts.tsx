import Alert from 'antd/es/alert';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../api/errors';

/** A change that failed: what failed, and the server's words (or the generic ones). */
export interface Failure {
  title: string;
  detail: string;
}

/**
 * The failure a section shows under its heading: `fail(title, error)` words a failed call with the
 * server's message, `fail(title, text)` with the page's own.
 */
export function useFailure(): {
  failure: Failure | undefined;
  fail: (title: string, cause: unknown) => void;
  clear: () => void;
} {
  const { t: common } = useTranslation();
  const [failure, setFailure] = useState<Failure>();
  const fail = (title: string, cause: unknown) =>
    setFailure({ title, detail: typeof cause === 'string' ? cause : failureMessage(cause, common) });
  return { failure, fail, clear: () => setFailure(undefined) };
}

export interface SecurityCardProps {
  title: string;
  /** The sentence under the heading. */
  intro: string;
  failure: Failure | undefined;
  children?: ReactNode;
}

/** One part of "My security": a section labelled by its heading, its text and its last failure. */
export function SecurityCard({ title, intro, failure, children }: SecurityCardProps) {
  const titleId = useId();
  return (
    <section className="security-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="security-card__title">
        {title}
      </h2>
      <p className="security-card__intro">{intro}</p>
      {failure ? <Alert className="security-card__alert" type="error" showIcon role="alert" title={failure.title} description={failure.detail} /> : null}
      {children}
    </section>
  );
}
