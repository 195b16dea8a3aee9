/** The public paths this unit answers (decisions section 8). */
export const paths = ['/sessions/:code/ai/*rest'];
