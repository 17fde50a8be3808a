import type { ReactNode } from 'react';

export interface AccountStepProps {
  /** Names the heading (`account-<id>-title`) the section is labelled by. */
  id: string;
  title: ReactNode;
  /** The paragraph under the heading. */
  text?: ReactNode;
  /** Set while the step is still loading what it shows. */
  busy?: boolean;
  /** Shown above the heading (a finished step's check mark). */
  icon?: ReactNode;
  /** A heading that announces a change (a finished step). */
  titleRole?: 'status';
  className?: string;
  children?: ReactNode;
}

/** The frame of each step of the account pages: a section labelled by its heading, and its text. */
export function AccountStep({ id, title, text, busy, icon, titleRole, className, children }: AccountStepProps) {
  const titleId = `account-${id}-title`;
  return (
    <section className={className} aria-labelledby={titleId} aria-busy={busy}>
      {icon}
      <h2 id={titleId} className="account-step__title" role={titleRole}>
        {title}
      </h2>
      {text !== undefined ? <p className="account-step__text">{text}</p> : null}
      {children}
    </section>
  );
}

/** The buttons row at the foot of a step. */
export function AccountStepActions({ children }: { children: ReactNode }) {
  return <div className="account-step__actions">{children}</div>;
}
