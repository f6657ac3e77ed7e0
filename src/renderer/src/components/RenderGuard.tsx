/**
 * Where a render error stops (docs/ui.md "A part that fails to render"). React unmounts everything up to the nearest
 * error boundary, and with none the whole window goes blank; a stored message that fails to render blanks it again
 * each time its session opens. A guard shows, in place of its part alone, what could not be shown and why, with a way
 * to try again; the rest of the app goes on. It also tries again by itself when `resetKey` changes (a new message,
 * another file).
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** What the part is, for the sentence: "This message", "The viewer", "This page". */
  what: string;
  resetKey?: unknown;
  /** The last guard, around the whole app: its way out is reloading the window. */
  isWindow?: boolean;
  children: ReactNode;
}

export class RenderGuard extends Component<Props, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`${this.props.what} could not be shown`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    const again = this.props.isWindow ? () => window.location.reload() : () => this.setState({ error: null });
    return (
      <div className="render-failed" role="alert" data-testid="render-failed">
        <span>
          {this.props.what} could not be shown: {error.message.split('\n')[0]}
        </span>
        <button type="button" onClick={again}>
          {this.props.isWindow ? 'Reload the window' : 'Try again'}
        </button>
      </div>
    );
  }
}
