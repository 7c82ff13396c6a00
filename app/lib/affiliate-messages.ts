/** Texts of the affiliate pages (spec sections 2, 5 and 8), shared by the action and the page. */
export const AFFILIATE_TEXT = {
  signupFailedToast: "Signup failed",
  signupFailedGeneric: "An error occurred during signup",
  checkEmail: "Account created successfully! Please check your email to verify your account.",
  checkEmailDetail: "Open the link in the email to confirm your address: it signs you in and opens your affiliate dashboard.",
  usernameTaken: "This username is already taken. Please choose another.",
  checkFields: "Please check the highlighted fields.",
  tooManyAttempts: "Too many attempts. Please wait a minute and try again.",
  unreadableForm: "The form could not be read. Please try again.",
  joined: "You're an affiliate! Share your link to start earning.",
  passwordHint: "At least 8 characters.",
} as const;

export type AffiliateField = "firstName" | "lastName" | "email" | "password" | "businessName" | "username";
