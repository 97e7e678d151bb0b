/**
 * While an assessment runs (the next page only arrives when it is done, which can take up to a minute), say
 * so: the submit button is disabled against a second submission and a status line counts the seconds.
 * Without JavaScript the form submits just the same. Going back to the page (bfcache) resets it.
 */
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-assess-form]')) {
  const button = form.querySelector<HTMLButtonElement>('[data-assess-submit]');
  const progress = form.querySelector<HTMLElement>('[data-assess-progress]');
  const input = form.querySelector<HTMLInputElement>('input[name="identifier"]');
  let timer: number | undefined;
  const reset = () => {
    if (timer !== undefined) window.clearInterval(timer);
    timer = undefined;
    if (button) {
      button.disabled = false;
      button.textContent = 'Assess';
    }
    if (progress) progress.textContent = '';
  };
  form.addEventListener('submit', () => {
    if (!button || !progress) return;
    const started = Date.now();
    const what = input?.value.trim() || 'the identifier';
    // Disabled after the submission has started, so the button's state does not stop it.
    window.setTimeout(() => {
      button.disabled = true;
      button.textContent = 'Assessing…';
    }, 0);
    progress.textContent = `Assessing ${what}: resolving it and harvesting its metadata…`;
    timer = window.setInterval(() => {
      const s = Math.round((Date.now() - started) / 1000);
      progress.textContent = `Assessing ${what}: ${s} s so far (at most 60 s)…`;
    }, 5000);
  });
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) reset();
  });
}
