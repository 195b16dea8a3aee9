/** The public paths this unit answers (spec 4.7, decisions section 9). */
export const paths = ['/integrations/*rest', '/sessions/:code/integrations/*rest'];
