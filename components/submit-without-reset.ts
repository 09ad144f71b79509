import { startTransition, type FormEvent } from 'react';

/**
 * An `onSubmit` for a form whose fields are controlled (a radio or a select bound to state):
 * it runs the form's action with the form's data, without React's automatic form reset.
 *
 * React resets a `<form action={fn}>` once its action has run, putting every field back to
 * the value the page was rendered with. A controlled field's state does not change, so React
 * never writes it back: the page then shows the old choice (the role a person had before it
 * was changed, retention "Off" right after turning it on) while the state holds the new one,
 * and the next submit sends what is shown, not what was saved. Submitting from here leaves the
 * fields as the person set them. Keep `action={formAction}` on the form as well: without
 * JavaScript the browser posts it as before.
 */
export function submitWithoutReset(action: (data: FormData) => void, before?: () => void) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    before?.();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const data = new FormData(event.currentTarget, submitter);
    startTransition(() => action(data));
  };
}
