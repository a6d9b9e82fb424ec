// the page: next commit
