import type { OutgoingMail } from '@svc/mailer';

/** The texts of the mails the dashboard sends. The code is the only secret in them. */
export function signupMail(to: string, code: string, minutes: number): OutgoingMail {
  return {
    to,
    subject: 'Verify your email address',
    text:
      `Your verification code is ${code}\n\n` +
      `Enter it in the dashboard within ${minutes} minutes to finish creating your account.\n` +
      'If you did not sign up, ignore this mail.',
  };
}

export function passwordResetMail(to: string, code: string, minutes: number): OutgoingMail {
  return {
    to,
    subject: 'Reset your password',
    text:
      `Your password reset code is ${code}\n\n` +
      `It is valid for ${minutes} minutes. If you did not ask to reset your password, ignore this mail: ` +
      'your password stays as it is.',
  };
}

/** Finds the code in a mail text (tests and the demo read their mail this way). */
export function codeInMail(text: string): string | undefined {
  return /code is (\d{6})/.exec(text)?.[1];
}
