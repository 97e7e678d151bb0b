/**
 * The screening dossier's form, enhanced: blank fields ("any") are left out of the submission, so the browser
 * goes straight to the clean address instead of through the page's redirect. Without this script the form
 * works the same, one redirect later.
 */
export function enhanceScreeningForm(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-screening-form]')) {
    form.addEventListener('submit', () => {
      for (const control of form.querySelectorAll<HTMLSelectElement | HTMLInputElement>('select[name], input[name]')) {
        // A disabled control is not submitted; re-enabled right after, so the back button finds the form as it was.
        if (control.value === '') {
          control.disabled = true;
          setTimeout(() => (control.disabled = false));
        }
      }
    });
  }
}
