// «Способы входа» (docs/behaviour.md §10.41): how this account signs in — its password, the organisation's provider.
import { type SignInMethodsViewProps, useSignInMethods } from './useSignInMethods';

export function SignInMethodsSection() {
  return <SignInMethodsView {...useSignInMethods()} />;
}

export function SignInMethodsView(props: SignInMethodsViewProps) {
  const m = props.methods;
  return (
    <section className="card form settings-sign-in" aria-labelledby="settings-sign-in" aria-busy={props.busy}>
      <h2 className="form-title" id="settings-sign-in">
        Способы входа
      </h2>
      {m && (
        <ul className="sign-in-methods">
          <li>{m.password ? 'Пароль' : 'Пароль не задан'}</li>
          {m.provider && <li>Через «{m.provider}»</li>}
        </ul>
      )}
      {props.error && (
        <div role="alert">
          <p className="inline-error">{props.error}</p>
          <button type="button" className="button ghost" onClick={props.onRetry}>
            Повторить
          </button>
        </div>
      )}
    </section>
  );
}
