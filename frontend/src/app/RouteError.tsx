import { Component, type ReactNode } from 'react';

/** Shown when a page fails to load (for example a chunk lost after a deploy). */
export function RouteError() {
  return (
    <section className="page" role="alert">
      <h1 className="page__title">ページを表示できませんでした</h1>
      <p>お手数ですが、ページを再読み込みしてください。</p>
      <p>
        <a href="/">トップページへ戻る</a>
      </p>
    </section>
  );
}

interface RouteErrorBoundaryProps {
  /** The router's location: a new one (the reader went back or on) tries the page again. */
  location: unknown;
  children: ReactNode;
}

interface RouteErrorBoundaryState {
  failed: boolean;
  location: unknown;
}

/**
 * Puts `RouteError` in place of the layout and page when either throws while rendering, until the
 * location changes: what the data router's `errorElement` on the layout route did.
 */
export class RouteErrorBoundary extends Component<RouteErrorBoundaryProps, RouteErrorBoundaryState> {
  override state: RouteErrorBoundaryState = { failed: false, location: this.props.location };

  static getDerivedStateFromError(): Partial<RouteErrorBoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(
    props: RouteErrorBoundaryProps,
    state: RouteErrorBoundaryState,
  ): Partial<RouteErrorBoundaryState> | null {
    return props.location === state.location ? null : { failed: false, location: props.location };
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}
