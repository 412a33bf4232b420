import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';

/** How an app turns a screen's title into the document title (the back-office adds its name). */
export const DocumentTitle = createContext<(title: string) => string>((title) => title);

/**
 * A screen: a region labelled by its heading. The title becomes the document title and the heading
 * takes focus (unless the page is framed), so a screen reader announces the new screen after each navigation.
 */
export function Page({
  title,
  subtitle,
  actions,
  children,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const documentTitle = useContext(DocumentTitle);
  const text = typeof title === 'string' ? title : null;
  useEffect(() => {
    if (text) document.title = documentTitle(text);
    // Inside a frame (the back-office's branding preview) the heading would pull focus out of the page around it, from
    // the field being typed in; the frame's own screen is announced by nothing there.
    if (window.self !== window.top) return;
    // In the next frame, whose layout the focus needs anyway: focused here, it forced that layout inside the render's task.
    const frame = requestAnimationFrame(() => headingRef.current?.focus({ preventScroll: true }));
    return () => cancelAnimationFrame(frame);
  }, [text, documentTitle]);
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title" ref={headingRef} tabIndex={-1}>
          {title}
        </h1>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </div>
      {subtitle ? <p className="subtitle">{subtitle}</p> : null}
      {children}
    </section>
  );
}

/** Error page body: the status code, the message, what to do, and a way on (docs/product.md#error-pages). */
export function ErrorView({
  status,
  title,
  message,
  description,
  children,
}: {
  status: number;
  title: string;
  message: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Page title={title}>
      <p className="status-code" aria-label={`Status code ${status}`}>
        {status}
      </p>
      <p className="status-message">{message}</p>
      {description ? <p>{description}</p> : null}
      {children}
    </Page>
  );
}
