/** The public paths this unit answers (spec 4.8, decisions section 10). */
export const paths = ['/webhooks', '/webhooks/*rest'];
