import { Component, type ComponentChildren } from 'preact';
import { t } from '../i18n/i18n.ts';

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
            {t('error.boundary', { app: this.props.app })}
          </p>
          <button type="button" onClick={() => location.reload()}>
            {t('error.reload')}
          </button>
        </main>
      </div>
    );
  }
}
