import { Component, type ComponentChildren } from 'preact';

interface Props {
  /** What the app is called in the message ("the driver app"). */
  app: string;
  children: ComponentChildren;
}

/**
 * A screen that throws while rendering would otherwise leave a blank page: this shows what happened
 * and a way back instead, and keeps the error in the console for whoever debugs it.
 */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static override getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div class="shell">
        <main id="main" class="stack">
          <p class="notice error" role="alert">
            Something went wrong in {this.props.app}. Your rides and payments are safe on the service.
          </p>
          <button type="button" onClick={() => location.reload()}>
            Reload the app
          </button>
        </main>
      </div>
    );
  }
}
