/** The account every harness call runs in. */
export const HARNESS_ACCOUNT_ID = '00000000-0000-4000-8000-000000000001';
/** The source the harness's admin-tier secrets belong to. */
export const HARNESS_SOURCE_ID = '00000000-0000-4000-8000-000000000002';
/** The slug of {@link HARNESS_ACCOUNT_ID}. */
export const HARNESS_ACCOUNT_SLUG = 'harness-team';
